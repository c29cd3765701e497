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
    /** The thread that watches the count: its own CPU is left out of the figures. */
    private static final String WATCHER = "bench-drain-watcher";

    private final long expected = Long.getLong("bench.expected", 100_000);
    /** Messages drained before the measured part (the JIT's warm-up); 0 measures from the first message. */
    private final long warmup = Long.getLong("bench.warmup", 0);
    private final AtomicLong count = new AtomicLong();
    private volatile long firstNanos;
    private volatile long countAtFirst;
    private volatile boolean watching;
    private volatile long processCpuAtFirst;
    private volatile Map<Long, Long> cpuAtFirst = Map.of();
    private volatile Map<String, Long> jvmCpuAtFirst = Map.of();

    void drained() {
        drained(1);
    }

    /**
     * {@code messages} more went through (a batch subscriber's call). Only counts: the measurement's start and end are
     * decided on a thread of their own (see {@link #watch}). A branch first taken at the 200,000th message, inlined
     * into the handler's compiled code, is an uncommon trap: the JIT threw the delivery path's compiled code away
     * right there and compiled it again inside the measured part (2.2-2.5 µs of C2 per message of a warm drain).
     */
    void drained(int messages) {
        count.addAndGet(messages);
        if (!watching) {
            startWatching();
        }
    }

    private synchronized void startWatching() {
        if (watching) {
            return;
        }
        watching = true;
        if (warmup == 0) {
            // A cold drain measures from the first message, on the handler's thread as before.
            markStart(0);
        }
        Thread watcher = new Thread(this::watch, WATCHER);
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Every millisecond: marks the measured part's start once the warm-up went through, and reports at its end. */
    private void watch() {
        try {
            while (true) {
                long now = count.get();
                if (firstNanos == 0 && now > warmup) {
                    markStart(now);
                    // The JVM's uptime, to line the measured part up with -XX:+PrintCompilation's or -Xlog's.
                    LOG.infof("BENCH measuring from message %d, JVM uptime %d ms", now + 1,
                            ManagementFactory.getRuntimeMXBean().getUptime());
                }
                if (firstNanos != 0 && now >= expected) {
                    report(now);
                    return;
                }
                Thread.sleep(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void markStart(long countNow) {
        cpuAtFirst = cpuByThread();
        jvmCpuAtFirst = jvmThreadsCpu();
        processCpuAtFirst = processCpu();
        countAtFirst = countNow;
        firstNanos = System.nanoTime();
    }

    private void report(long countNow) {
        long measured = countNow - countAtFirst;
        long elapsedMicros = (System.nanoTime() - firstNanos) / 1_000;
        // The CPU line first: the benchmark script stops the app once it sees the rate.
        LOG.infof("BENCH cpu per message (µs): %s%s", cpuPerMessage(measured), acksPerFrame());
        if (warmup > 0) {
            LOG.infof("BENCH measured until JVM uptime %d ms", ManagementFactory.getRuntimeMXBean().getUptime());
        }
        LOG.infof("BENCH drained %d messages in %d ms: %d msg/s", measured, elapsedMicros / 1000,
                measured * 1_000_000 / Math.max(1, elapsedMicros));
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
        long watcher = 0;
        for (long id : threads.getAllThreadIds()) {
            var info = threads.getThreadInfo(id);
            long now = threads.getThreadCpuTime(id);
            if (info == null || now < 0) {
                continue;
            }
            long spent = now - cpuAtFirst.getOrDefault(id, 0L);
            if (info.getThreadName().equals(WATCHER)) {
                watcher = spent;
                continue;
            }
            if (spent <= 0) {
                continue;
            }
            byGroup.merge(info.getThreadName().replaceAll("[0-9]+", "N"), spent, Long::sum);
            total += spent;
        }
        long process = processCpu() - processCpuAtFirst - watcher;
        // The JVM's own threads (the JIT's compilers above all) are not listed by ThreadMXBean: what the process
        // spent beyond the listed threads is theirs.
        StringBuilder line = new StringBuilder(String.format("process %.2f, JIT+GC %.2f, threads %.2f",
                process / 1000.0 / messages, Math.max(0, process - total) / 1000.0 / messages, total / 1000.0 / messages));
        byGroup.forEach((name, nanos) -> line.append(String.format(", %s %.2f", name, nanos / 1000.0 / messages)));
        Map<String, Long> jvmNow = jvmThreadsCpu();
        if (!jvmNow.isEmpty()) {
            line.append("; the JVM's own:");
            jvmNow.forEach((name, nanos) -> {
                long spent = nanos - jvmCpuAtFirst.getOrDefault(name, 0L);
                if (spent > 0) {
                    line.append(String.format(" %s %.2f", name, spent / 1000.0 / messages));
                }
            });
        }
        return line.toString();
    }

    /**
     * The JVM's own threads' CPU by kind (C1/C2 compilers, GC, VM thread), in nanoseconds, from /proc (Linux only;
     * empty elsewhere): ThreadMXBean does not list them, and "JIT+GC" alone cannot tell which of the two it is.
     */
    private static Map<String, Long> jvmThreadsCpu() {
        Map<String, Long> byKind = new TreeMap<>();
        java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        if (tasks == null) {
            return byKind;
        }
        long nanosPerTick = 1_000_000_000L / 100; // USER_HZ is 100 on Linux
        for (java.io.File task : tasks) {
            try {
                String name = java.nio.file.Files.readString(task.toPath().resolve("comm")).trim();
                String kind = name.startsWith("C1 ") ? "C1"
                        : name.startsWith("C2 ") ? "C2"
                                : name.startsWith("VM Thread") ? "VM"
                                        : name.startsWith("GC ") || name.startsWith("G1 ") ? "GC"
                                                : null;
                if (kind == null) {
                    continue;
                }
                String stat = java.nio.file.Files.readString(task.toPath().resolve("stat"));
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                byKind.merge(kind, ticks * nanosPerTick, Long::sum);
            } catch (java.io.IOException | RuntimeException e) {
                // a thread that ended meanwhile
            }
        }
        return byKind;
    }
}
