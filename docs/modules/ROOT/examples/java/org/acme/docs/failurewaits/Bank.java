package org.acme.docs.failurewaits;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

/** The bank the handlers call. In this sample it lives in memory, and can be told to be down. */
@ApplicationScoped
public class Bank {

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final List<String> done = new CopyOnWriteArrayList<>();
    private volatile boolean down;

    public void transfer(Payout payout) {
        call("transfer " + payout.id());
    }

    public void settle(Payout payout) {
        call("settle " + payout.id());
    }

    private void call(String operation) {
        calls.computeIfAbsent(operation, key -> new AtomicInteger()).incrementAndGet();
        if (down) {
            throw new IllegalStateException("the bank is down");
        }
        done.add(operation);
    }

    public void down(boolean down) {
        this.down = down;
    }

    /** How many times the operation ("transfer p-1", "settle s-1") was tried. */
    public int calls(String operation) {
        AtomicInteger count = calls.get(operation);
        return count == null ? 0 : count.get();
    }

    /** The operations that went through. */
    public List<String> done() {
        return List.copyOf(done);
    }
}
