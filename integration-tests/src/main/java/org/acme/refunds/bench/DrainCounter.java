package org.acme.refunds.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

/**
 * Counts drained messages and prints the rate once the expected number went through, with the CPU time the app's
 * threads spent meanwhile (per thread group, in microseconds per message): what a drain costs, apart from the broker.
 */
final class DrainCounter {

    private static final Logger LOG = Logger.getLogger(DrainCounter.class);

    private final long expected = Long.getLong("bench.expected", 100_000);
    /** Messages drained before the measured part (the JIT's warm-up); 0 measures from the first message. */
    private final long warmup = Long.getLong("bench.warmup", 0);
    private final AtomicLong count = new AtomicLong();
    private volatile long firstNanos;
    private volatile long processCpuAtFirst;
    private volatile Map<Long, Long> cpuAtFirst = Map.of();

    void drained() {
        drained(1);
    }

    /** {@code messages} more went through (a batch subscriber's call). */
    void drained(int messages) {
        long before = count.getAndAdd(messages);
        long n = before + messages;
        if (before < warmup + 1 && n >= warmup + 1) {
            cpuAtFirst = cpuByThread();
            processCpuAtFirst = processCpu();
            firstNanos = System.nanoTime();
        }
        if (before < expected && n >= expected) {
            long measured = expected - warmup;
            long elapsedMicros = (System.nanoTime() - firstNanos) / 1_000;
            // The CPU line first: the benchmark script stops the app once it sees the rate.
            LOG.infof("BENCH cpu per message (µs): %s%s", cpuPerMessage(measured), acksPerFrame());
            LOG.infof("BENCH drained %d messages in %d ms: %d msg/s", measured, elapsedMicros / 1000,
                    measured * 1_000_000 / Math.max(1, elapsedMicros));
        }
    }

    /** Acks per basic.ack frame since startup, from the runtime's settlement counters (a benchmark may look inside). */
    private static String acksPerFrame() {
        var stats = io.quarkus.arc.Arc.container().instance(io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus.class)
                .get().stats();
        return stats.ackFrames() == 0 ? ""
                : String.format("; %.1f acks per ack frame", (double) stats.acked() / stats.ackFrames());
    }

    /** The CPU time of the whole process: the application's threads and the JVM's own (JIT compilers, GC). */
    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static Map<Long, Long> cpuByThread() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<Long, Long> cpu = new HashMap<>();
        for (long id : threads.getAllThreadIds()) {
            cpu.put(id, threads.getThreadCpuTime(id));
        }
        return cpu;
    }

    private String cpuPerMessage(long messages) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> byGroup = new TreeMap<>();
        long total = 0;
        for (long id : threads.getAllThreadIds()) {
            var info = threads.getThreadInfo(id);
            long now = threads.getThreadCpuTime(id);
            if (info == null || now < 0) {
                continue;
            }
            long spent = now - cpuAtFirst.getOrDefault(id, 0L);
            if (spent <= 0) {
                continue;
            }
            byGroup.merge(info.getThreadName().replaceAll("[0-9]+", "N"), spent, Long::sum);
            total += spent;
        }
        long process = processCpu() - processCpuAtFirst;
        // The JVM's own threads (the JIT's compilers above all) are not listed by ThreadMXBean: what the process
        // spent beyond the listed threads is theirs.
        StringBuilder line = new StringBuilder(String.format("process %.2f, JIT+GC %.2f, threads %.2f",
                process / 1000.0 / messages, Math.max(0, process - total) / 1000.0 / messages, total / 1000.0 / messages));
        byGroup.forEach((name, nanos) -> line.append(String.format(", %s %.2f", name, nanos / 1000.0 / messages)));
        return line.toString();
    }
}
