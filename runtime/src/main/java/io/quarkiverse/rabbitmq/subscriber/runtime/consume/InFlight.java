package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.time.Duration;

/**
 * Counts deliveries handed to handlers and not yet settled, so a graceful stop can wait for them.
 */
public final class InFlight {

    private int count;

    public synchronized void begin() {
        count++;
    }

    /** {@code settled} deliveries had their frames written. */
    public synchronized void end(int settled) {
        count -= settled;
        if (count <= 0) {
            notifyAll();
        }
    }

    public synchronized int count() {
        return count;
    }

    /** Waits until nothing is in flight or the timeout passed; returns what is still in flight. */
    public synchronized int awaitZero(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return count;
    }
}
