package io.quarkiverse.rabbitmq.subscriber.runtime.flow;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts deliveries handed to handlers and not yet settled, so a graceful stop can wait for them. Counting is a plain
 * atomic on the delivery path; the monitor is taken only to wake a stop that waits.
 */
public final class InFlight {

    private final AtomicInteger count = new AtomicInteger();

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

    /** Waits until nothing is in flight or the timeout passed; returns what is still in flight. */
    public synchronized int awaitZero(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        // Checked under the monitor, and end() notifies under it: a wake-up cannot fall between check and wait.
        while (count.get() > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return count.get();
    }
}
