package org.acme.peer;

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

    @RabbitListener(queues = "bench.latency", autoStartup = "${bench.latency:false}")
    public void handle(byte[] body) {
        Instant now = Instant.now();
        long sent = ByteBuffer.wrap(body).getLong();
        long latency = (now.getEpochSecond() * 1_000_000_000L + now.getNano() - sent) / 1_000;
        int n = count.getAndIncrement();
        if (n < expected) {
            micros[n] = latency;
        }
        if (n == expected - 1) {
            long[] measured = Arrays.copyOfRange(micros, expected * Integer.getInteger("bench.skip-percent", 10) / 100, expected);
            Arrays.sort(measured);
            System.out.println(String.format("BENCH latency µs p50 %d p99 %d p99.9 %d max %d (%d messages)",
                    at(measured, 0.50), at(measured, 0.99), at(measured, 0.999), measured[measured.length - 1],
                    measured.length));
        }
    }

    private static long at(long[] sorted, double quantile) {
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)];
    }
}
