package org.acme.peer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

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

    private void drained(int messages) {
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
            System.out.println("BENCH cpu per message (µs): " + cpuPerMessage(measured));
            System.out.println("BENCH drained " + measured + " messages in " + elapsedMicros / 1000 + " ms: "
                    + measured * 1_000_000 / Math.max(1, elapsedMicros) + " msg/s");
        }
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
        for (long id : threads.getAllThreadIds()) {
            var info = threads.getThreadInfo(id);
            long now = threads.getThreadCpuTime(id);
            if (info == null || now < 0) {
                continue;
            }
            long spent = now - cpuAtFirst.getOrDefault(id, 0L);
            if (spent > 0) {
                byGroup.merge(info.getThreadName().replaceAll("[0-9]+", "N"), spent, Long::sum);
                total += spent;
            }
        }
        long process = processCpu() - processCpuAtFirst;
        StringBuilder line = new StringBuilder(String.format("process %.2f, JIT+GC %.2f, threads %.2f",
                process / 1000.0 / messages, (process - total) / 1000.0 / messages, total / 1000.0 / messages));
        byGroup.forEach((group, nanos) -> line.append(String.format(", %s %.2f", group, nanos / 1000.0 / messages)));
        return line.toString();
    }
}
