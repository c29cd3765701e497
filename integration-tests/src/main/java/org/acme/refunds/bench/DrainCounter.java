package org.acme.refunds.bench;

import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

/** Counts drained messages and prints the rate once the expected number went through. */
final class DrainCounter {

    private static final Logger LOG = Logger.getLogger(DrainCounter.class);

    private final long expected = Long.getLong("bench.expected", 100_000);
    private final AtomicLong count = new AtomicLong();
    private volatile long firstNanos;

    void drained() {
        long n = count.incrementAndGet();
        if (n == 1) {
            firstNanos = System.nanoTime();
        } else if (n == expected) {
            long elapsedMicros = (System.nanoTime() - firstNanos) / 1_000;
            LOG.infof("BENCH drained %d messages in %d ms: %d msg/s", n, elapsedMicros / 1000,
                    n * 1_000_000 / Math.max(1, elapsedMicros));
        }
    }
}
