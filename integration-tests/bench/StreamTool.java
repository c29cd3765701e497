import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.rabbitmq.stream.Consumer;
import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.OffsetSpecification;
import com.rabbitmq.stream.Producer;

/**
 * streams.sh's stream side, with the stream client the extension uses (no compression offered):
 * <ul>
 * <li>{@code fill STREAM N}: deletes the stream, declares it again and writes N messages of 100 bytes, confirmed;</li>
 * <li>{@code drain STREAM N}: the bare client's drain, the protocol's ceiling here: a consumer from the first offset
 * that counts messages and does nothing else (no tracking, the client's default flow); prints its rate;</li>
 * <li>{@code delete STREAM}.</li>
 * </ul>
 * -Duri=rabbitmq-stream://guest:guest@127.0.0.1:5553/%2f
 */
public class StreamTool {
    public static void main(String[] args) throws Exception {
        String stream = args[1];
        try (Environment environment = Environment.builder()
                .uri(System.getProperty("uri", "rabbitmq-stream://guest:guest@127.0.0.1:5553/%2f"))
                .compressionCodecFactory(compression -> null).build()) {
            switch (args[0]) {
                case "delete" -> delete(environment, stream);
                case "fill" -> fill(environment, stream, Integer.parseInt(args[2]));
                case "drain" -> drain(environment, stream, Long.parseLong(args[2]),
                        args.length > 3 ? Long.parseLong(args[3]) : 0);
                default -> throw new IllegalArgumentException(Arrays.toString(args));
            }
        }
    }

    static void delete(Environment environment, String stream) {
        try {
            environment.deleteStream(stream);
        } catch (RuntimeException e) {
            // absent
        }
    }

    static void fill(Environment environment, String stream, int count) throws Exception {
        delete(environment, stream);
        // As the extension declares it, with no argument but the type, so its declaration finds it equivalent (the
        // environment's stream creator adds a leader locator, which RabbitMQ would hold against that declaration).
        java.net.URI uri = java.net.URI.create(System.getProperty("uri", "rabbitmq-stream://guest:guest@127.0.0.1:5553/%2f"));
        com.rabbitmq.stream.impl.Client client = new com.rabbitmq.stream.impl.Client(
                new com.rabbitmq.stream.impl.Client.ClientParameters().host(uri.getHost()).port(uri.getPort()));
        try {
            client.create(stream, java.util.Map.of());
        } finally {
            client.close();
        }
        byte[] body = new byte[100];
        Arrays.fill(body, (byte) 'x');
        Semaphore inFlight = new Semaphore(10_000);
        CountDownLatch done = new CountDownLatch(count);
        try (Producer producer = environment.producerBuilder().stream(stream).build()) {
            for (int i = 0; i < count; i++) {
                inFlight.acquire();
                producer.send(producer.messageBuilder().addData(body).build(), status -> {
                    inFlight.release();
                    done.countDown();
                });
            }
            if (!done.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("not confirmed");
            }
        }
        System.out.println("filled " + stream + " with " + count + " messages");
    }

    /** Reads {@code count} messages; the rate is measured after the first {@code warmup} (the JIT's warm-up). */
    static void drain(Environment environment, String stream, long count, long warmup) throws Exception {
        AtomicLong seen = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        long[] first = new long[1];
        Consumer consumer = environment.consumerBuilder().stream(stream).offset(OffsetSpecification.first())
                .noTrackingStrategy().messageHandler((context, message) -> {
                    long n = seen.incrementAndGet();
                    if (n == warmup + 1) {
                        first[0] = System.nanoTime();
                    }
                    if (n == count) {
                        done.countDown();
                    }
                }).build();
        if (!done.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("drained " + seen.get() + " of " + count);
        }
        long nanos = System.nanoTime() - first[0];
        consumer.close();
        long measured = count - warmup;
        System.out.printf("BENCH drained %d messages in %d ms: %d msg/s%n", measured, nanos / 1_000_000,
                measured * 1_000_000_000L / Math.max(1, nanos));
    }
}
