package org.acme.peer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.OffsetSpecification;

import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.rabbit.stream.config.StreamRabbitListenerContainerFactory;

/**
 * A no-op {@code @RabbitListener} on the drain benchmark's queue, taking the body as bytes. Prints the same two lines
 * as the extension's bench subscribers ({@code BENCH cpu per message}, then {@code BENCH drained ... msg/s}) once
 * {@code -Dbench.expected} messages went through, so drain.sh measures both the same way.
 */
@SpringBootApplication
public class SpringDrain {

    private final long expected = Long.getLong("bench.expected", 100_000);
    private final long warmup = Long.getLong("bench.warmup", 0);
    private final AtomicLong count = new AtomicLong();
    private volatile long firstNanos;
    private volatile long countAtFirst;
    private volatile boolean watching;
    /** The thread that watches the count: its own CPU is left out of the figures. */
    private static final String WATCHER = "bench-drain-watcher";
    private volatile long processCpuAtFirst;
    private volatile Map<Long, Long> cpuAtFirst = Map.of();

    public static void main(String[] args) {
        SpringApplication.run(SpringDrain.class, args);
    }

    @RabbitListener(queues = "bench.drain", autoStartup = "${bench.drain.listener:true}")
    public void drain(byte[] body) {
        drained(1);
    }

    /**
     * The batch peer ({@code -Dbench.drain.listener=false -Dbench.drain.batch=true}): Spring AMQP's batch listener,
     * the container building batches of 100 from the consumer ({@code consumerBatchEnabled}).
     */
    @RabbitListener(queues = "bench.drain", autoStartup = "${bench.drain.batch:false}", containerFactory = "batchFactory")
    public void drainBatch(List<byte[]> bodies) {
        drained(bodies.size());
    }

    /**
     * The stream peer ({@code -Dbench.drain.listener=false -Dbench.drain.stream=true}, streams.sh): Spring AMQP's
     * stream listener container on {@code bench.stream}, from its first offset, under a consumer name
     * ({@code -Dbench.stream.name}) whose offset the container stores itself (the client's automatic tracking, its
     * default with a name), as the extension stores the offset of what it settled.
     */
    @RabbitListener(queues = "bench.stream", autoStartup = "${bench.drain.stream:false}", containerFactory = "streamFactory")
    public void drainStream(byte[] body) {
        drained(1);
    }

    @Bean
    static StreamRabbitListenerContainerFactory streamFactory(Environment environment) {
        StreamRabbitListenerContainerFactory factory = new StreamRabbitListenerContainerFactory(environment);
        String name = System.getProperty("bench.stream.name", "spring-stream-drain");
        factory.setConsumerCustomizer((id, builder) -> builder.name(name).offset(OffsetSpecification.first()));
        return factory;
    }

    @Bean
    static SimpleRabbitListenerContainerFactory batchFactory(ConnectionFactory connectionFactory) {
        SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
        factory.setConnectionFactory(connectionFactory);
        factory.setPrefetchCount(250);
        factory.setBatchListener(true);
        factory.setConsumerBatchEnabled(true);
        factory.setBatchSize(100);
        // How long the container waits for a batch to fill, as the extension's maxWait.
        factory.setReceiveTimeout(100L);
        return factory;
    }

    /**
     * Only counts: the measured part's start and end are decided on a thread of its own, as the extension's bench
     * subscribers do (a branch first taken at the 200,000th message, inlined into the listener's compiled code, made
     * the JIT throw that code away and compile it again inside the measured part).
     */
    private void drained(int messages) {
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
            markStart(0);
        }
        Thread watcher = new Thread(this::watch, WATCHER);
        watcher.setDaemon(true);
        watcher.start();
    }

    private void watch() {
        try {
            while (true) {
                long now = count.get();
                if (firstNanos == 0 && now > warmup) {
                    markStart(now);
                }
                if (firstNanos != 0 && now >= expected) {
                    long measured = now - countAtFirst;
                    long elapsedMicros = (System.nanoTime() - firstNanos) / 1_000;
                    System.out.println("BENCH cpu per message (µs): " + cpuPerMessage(measured));
                    System.out.println("BENCH drained " + measured + " messages in " + elapsedMicros / 1000 + " ms: "
                            + measured * 1_000_000 / Math.max(1, elapsedMicros) + " msg/s");
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
        processCpuAtFirst = processCpu();
        countAtFirst = countNow;
        firstNanos = System.nanoTime();
    }

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

    /** Microseconds per message: the process, the JVM's own threads (JIT, GC), and the listed threads by name. */
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
            if (spent > 0) {
                byGroup.merge(info.getThreadName().replaceAll("[0-9]+", "N"), spent, Long::sum);
                total += spent;
            }
        }
        long process = processCpu() - processCpuAtFirst - watcher;
        StringBuilder line = new StringBuilder(String.format("process %.2f, JIT+GC %.2f, threads %.2f",
                process / 1000.0 / messages, (process - total) / 1000.0 / messages, total / 1000.0 / messages));
        byGroup.forEach((group, nanos) -> line.append(String.format(", %s %.2f", group, nanos / 1000.0 / messages)));
        return line.toString();
    }
}
