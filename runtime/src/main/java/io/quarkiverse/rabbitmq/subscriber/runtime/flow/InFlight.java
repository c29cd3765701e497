package io.quarkiverse.rabbitmq.subscriber.runtime.flow;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * Counts deliveries handed to handlers and not yet settled, so a graceful stop can wait for them. Counting is a plain
 * atomic on the delivery path; the monitor is taken only to wake a stop that waits.
 */
public final class InFlight {

    private final AtomicInteger count = new AtomicInteger();
    /** Of those, the deliveries an open batch holds until its {@code maxWait} passes on the runtime's clock. */
    private final AtomicInteger heldForClock = new AtomicInteger();

    public void begin() {
        count.incrementAndGet();
    }

    /** {@code settled} deliveries had their frames written. */
    public void end(int settled) {
        if (count.addAndGet(-settled) <= 0) {
            synchronized (this) {
                notifyAll();
            }
        }
    }

    public int count() {
        return count.get();
    }

    /**
     * {@code delta} more (or fewer) deliveries wait in open batches for the clock: the in-process broker counts them
     * as quiet, since only an {@code advance} of its virtual clock moves them on.
     */
    public void heldForClock(int delta) {
        heldForClock.addAndGet(delta);
    }

    public int heldForClock() {
        return heldForClock.get();
    }

    /** Waits until nothing is in flight or the timeout passed; returns what is still in flight. */
    public synchronized int awaitZero(Duration timeout, Clock clock) throws InterruptedException {
        long deadline = clock.nanos() + timeout.toNanos();
        // Checked under the monitor, and end() notifies under it: a wake-up cannot fall between check and wait.
        while (count.get() > 0) {
            long left = deadline - clock.nanos();
            if (left <= 0) {
                break;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return count.get();
    }
}
