package org.acme.peer;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.stereotype.Component;

/**
 * The latency benchmark's {@code @RabbitListener} (bench/latency.sh, -Dbench.latency=true): as the extension's
 * LatencyRecorder, how long after its publish (the body's first 8 bytes, epoch nanoseconds) each message reached the
 * listener; prints the same line once {@code -Dbench.expected} went through, the first tenth left out.
 */
@Component
public class SpringLatency {

    private final int expected = Integer.getInteger("bench.expected", 10_000);
    private final long[] micros = new long[expected];
    private final AtomicInteger count = new AtomicInteger();
    /** The JVM's collections and their time when the first message came: the run's are those after. */
    private volatile long[] collectionsAtStart;

    @RabbitListener(queues = "bench.latency", autoStartup = "${bench.latency:false}")
    public void handle(byte[] body) {
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
            long[] measured = Arrays.copyOfRange(micros, expected * Integer.getInteger("bench.skip-percent", 10) / 100, expected);
            Arrays.sort(measured);
            System.out.println(String.format("BENCH latency µs p50 %d p99 %d p99.9 %d max %d (%d messages)",
                    at(measured, 0.50), at(measured, 0.99), at(measured, 0.999), measured[measured.length - 1],
                    measured.length));
            // As the extension's LatencyRecorder: for each second of the run, how many took over a millisecond.
            StringBuilder slow = new StringBuilder("BENCH slow (> 1 ms) by second:");
            int rate = Integer.getInteger("bench.rate", 1000);
            for (int from = 0; from < expected; from += rate) {
                int over = 0;
                for (int i = from; i < Math.min(expected, from + rate); i++) {
                    over += micros[i] > 1_000 ? 1 : 0;
                }
                slow.append(' ').append(over);
            }
            System.out.println(slow);
            long[] after = collections();
            System.out.println(String.format("BENCH collections during the run: %d, %d ms",
                    after[0] - collectionsAtStart[0], after[1] - collectionsAtStart[1]));
        }
    }

    /** As the extension's LatencyRecorder: the JVM's collections so far and their time (ms). */
    private static long[] collections() {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, collector.getCollectionCount());
            millis += Math.max(0, collector.getCollectionTime());
        }
        return new long[] { count, millis };
    }

    private static long at(long[] sorted, double quantile) {
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)];
    }
}
