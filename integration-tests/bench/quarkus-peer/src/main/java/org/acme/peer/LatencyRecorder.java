package org.acme.peer;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

/**
 * Records, for each message of the latency benchmark (bench/latency.sh), how long after its publish its handler got
 * it: the publisher wrote its wall-clock time into the body's first 8 bytes, on the same machine. Once
 * {@code -Dbench.expected} messages went through, prints the percentiles of all but the first tenth (the JIT's
 * warm-up), in microseconds.
 */
public final class LatencyRecorder {

    private static final Logger LOG = Logger.getLogger(LatencyRecorder.class);

    private final int expected = Integer.getInteger("bench.expected", 10_000);
    private final long[] micros = new long[expected];
    private final AtomicInteger count = new AtomicInteger();
    /** The JVM's collections and their time when the first message came: the run's are those after. */
    private volatile long[] collectionsAtStart;

    public void handled(byte[] body) {
        Instant now = Instant.now();
        long sent = ByteBuffer.wrap(body).getLong();
        long latency = (now.getEpochSecond() * 1_000_000_000L + now.getNano() - sent) / 1_000;
        int n = count.getAndIncrement();
        if (n == 0) {
            collectionsAtStart = collections();
        }
        if (n < expected) {
            micros[n] = latency;
        }
        if (n == expected - 1) {
            LOG.info(percentiles(micros, expected * Integer.getInteger("bench.skip-percent", 10) / 100));
            LOG.info(slowBySecond(micros, Integer.getInteger("bench.rate", 1000)));
            long[] after = collections();
            // A pause in the run is a tail no library choice explains: latency.sh prints it beside the percentiles.
            LOG.infof("BENCH collections during the run: %d, %d ms", after[0] - collectionsAtStart[0],
                    after[1] - collectionsAtStart[1]);
        }
    }

    /** The JVM's collections so far and their time (ms), all collectors together. */
    private static long[] collections() {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, collector.getCollectionCount());
            millis += Math.max(0, collector.getCollectionTime());
        }
        return new long[] { count, millis };
    }

    /** The line latency.sh reads: "BENCH latency µs p50 .. p99 .. p99.9 .. max ..". */
    static String percentiles(long[] all, int skip) {
        long[] measured = Arrays.copyOfRange(all, skip, all.length);
        Arrays.sort(measured);
        return String.format("BENCH latency µs p50 %d p99 %d p99.9 %d max %d (%d messages)", at(measured, 0.50),
                at(measured, 0.99), at(measured, 0.999), measured[measured.length - 1], measured.length);
    }

    /**
     * Where the slow messages fall: for each second of the run (at the publisher's rate), how many took over a
     * millisecond. Clustered in the first seconds, they are the JIT's; spread out, the delivery path's.
     */
    static String slowBySecond(long[] all, int rate) {
        StringBuilder line = new StringBuilder("BENCH slow (> 1 ms) by second:");
        for (int from = 0; from < all.length; from += rate) {
            int slow = 0;
            for (int i = from; i < Math.min(all.length, from + rate); i++) {
                slow += all[i] > 1_000 ? 1 : 0;
            }
            line.append(' ').append(slow);
        }
        return line.toString();
    }

    private static long at(long[] sorted, double quantile) {
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)];
    }
}
