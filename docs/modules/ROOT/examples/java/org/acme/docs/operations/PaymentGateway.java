package org.acme.docs.operations;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The payment service the handler calls. In this sample it lives in memory: it declines payments above a limit, knows
 * closed accounts, and can be told to be down.
 */
@ApplicationScoped
public class PaymentGateway {

    static final long LIMIT_CENTS = 100_000;

    private final Set<String> closedAccounts = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
    private final List<String> charged = new CopyOnWriteArrayList<>();
    private volatile boolean down;

    public boolean closed(String account) {
        return closedAccounts.contains(account);
    }

    public void charge(Payment payment) {
        attempts.computeIfAbsent(payment.id(), id -> new AtomicInteger()).incrementAndGet();
        if (down) {
            throw new IllegalStateException("the payment gateway is down");
        }
        if (payment.amountCents() > LIMIT_CENTS) {
            throw new DeclinedException("payment " + payment.id() + " is above the limit");
        }
        charged.add(payment.id());
    }

    public void close(String account) {
        closedAccounts.add(account);
    }

    public void reopen(String account) {
        closedAccounts.remove(account);
    }

    public void down(boolean down) {
        this.down = down;
    }

    /** The payments charged, by id, in the order they were. */
    public List<String> charged() {
        return List.copyOf(charged);
    }

    /** How many times the payment was tried. */
    public int attempts(String paymentId) {
        AtomicInteger count = attempts.get(paymentId);
        return count == null ? 0 : count.get();
    }
}
