package org.acme.peer;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The latency benchmark's record (bench/latency.sh), one source for both peers (each adds this folder to its
 * sources, so neither depends on the other's stack): for each message, how long after its publish its handler got it
 * (the publisher wrote its wall-clock time into the body's first 8 bytes, on the same machine). Once
 * {@code -Dbench.expected} messages went through, it gives the lines latency.sh reads.
 */
public final class LatencyRecord {

    private final int expected = Integer.getInteger("bench.expected", 10_000);
    private final long[] micros = new long[expected];
    private final AtomicInteger count = new AtomicInteger();
    /** The JVM's collections and their time when the first message came: the run's are those after. */
    private volatile long[] collectionsAtStart;

    /** Records one message; returns the report once the expected number went through, an empty list before. */
    public List<String> handled(byte[] body) {
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
        if (n != expected - 1) {
            return List.of();
        }
        long[] after = collections();
        return List.of(percentiles(expected * Integer.getInteger("bench.skip-percent", 10) / 100),
                slowBySecond(Integer.getInteger("bench.rate", 1000)),
                // A pause in the run is a tail no library choice explains: latency.sh prints it beside the percentiles.
                String.format("BENCH collections during the run: %d, %d ms", after[0] - collectionsAtStart[0],
                        after[1] - collectionsAtStart[1]));
    }

    /** "BENCH latency µs p50 .. p99 .. p99.9 .. max ..", all but the first {@code skip} (the JIT's warm-up). */
    private String percentiles(int skip) {
        long[] measured = Arrays.copyOfRange(micros, skip, micros.length);
        Arrays.sort(measured);
        return String.format("BENCH latency µs p50 %d p99 %d p99.9 %d max %d (%d messages)", at(measured, 0.50),
                at(measured, 0.99), at(measured, 0.999), measured[measured.length - 1], measured.length);
    }

    /**
     * Where the slow messages fall: for each second of the run (at the publisher's rate), how many took over a
     * millisecond. Clustered in the first seconds, they are the JIT's; spread out, the delivery path's.
     */
    private String slowBySecond(int rate) {
        StringBuilder line = new StringBuilder("BENCH slow (> 1 ms) by second:");
        for (int from = 0; from < micros.length; from += rate) {
            int slow = 0;
            for (int i = from; i < Math.min(micros.length, from + rate); i++) {
                slow += micros[i] > 1_000 ? 1 : 0;
            }
            line.append(' ').append(slow);
        }
        return line.toString();
    }

    private static long at(long[] sorted, double quantile) {
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)];
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
}
