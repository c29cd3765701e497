package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.stream.Environment;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.StreamReading;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;

/**
 * Two instances reading one stream under one name, on RabbitMQ's stream protocol (4.0.5 and 4.3.6 in CI): the first
 * reads it, the second stands by, and when the first goes the second resumes after the offset the first stored,
 * instead of both reading everything.
 */
@Tag("wire")
@Tag("stream")
class SingleActiveStreamReadersTest {

    static final String STREAM = "t.stream.single-active";

    @RegisterExtension
    static final WireBroker broker = WireBroker.queues(STREAM).needsStreams();

    static final class Recorder implements StreamReading.Handler {
        final List<String> read = new CopyOnWriteArrayList<>();
        final List<String> activity = new CopyOnWriteArrayList<>();

        @Override
        public void message(String stream, long offset, AMQP.BasicProperties properties, byte[] body,
                String filterValue, Runnable processed) {
            read.add(new String(body, StandardCharsets.UTF_8));
            processed.run();
        }

        @Override
        public void activity(String stream, boolean active) {
            activity.add(stream + (active ? " active" : " inactive"));
        }
    }

    @Test
    void theFirstReadsTheNextTakesOverAfterTheStoredOffset() throws Exception {
        RabbitAdmin.with(admin -> admin.declare(STREAM, Map.of("x-queue-type", "stream")));
        try (Environment environment = Environment.builder()
                .uri("rabbitmq-stream://guest:guest@127.0.0.1:" + WireBroker.STREAM_PORT + "/%2f")
                .compressionCodecFactory(new GzipOnly()).build()) {
            ClientStreamReading reading = new ClientStreamReading(environment);
            StreamReading.Start first = new StreamReading.Start(StreamReading.Start.Kind.FIRST, 0);
            Recorder one = new Recorder();
            Recorder two = new Recorder();
            StreamReading.Reader a = reading.read(STREAM, "t-single-active", first, Set.of(), true, one);
            await().atMost(Duration.ofSeconds(10)).until(() -> one.activity.contains(STREAM + " active"));
            StreamReading.Reader b = reading.read(STREAM, "t-single-active", first, Set.of(), true, two);
            for (int i = 0; i < 3; i++) {
                int n = i;
                RabbitAdmin.with(admin -> admin.publish(STREAM, "e" + n));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> one.read.size() == 3);
            assertEquals(List.of("e0", "e1", "e2"), one.read);
            assertEquals(List.of(), two.read, "the second stands by");

            a.store(STREAM, 1);
            // The store is a frame of its own: read back before the first goes.
            await().atMost(Duration.ofSeconds(10)).until(() -> storedOffset(environment) == 1);
            a.close();
            await().atMost(Duration.ofSeconds(10)).until(() -> two.read.contains("e2"));
            assertEquals(List.of("e2"), two.read, "the second resumed after the offset the first stored");
            b.close();
        }
    }

    private static long storedOffset(Environment environment) {
        com.rabbitmq.stream.Consumer reader = environment.consumerBuilder().stream(STREAM).name("t-single-active")
                .offset(com.rabbitmq.stream.OffsetSpecification.next()).manualTrackingStrategy().builder()
                .messageHandler((context, message) -> {
                }).build();
        try {
            return reader.storedOffset();
        } catch (RuntimeException e) {
            return -1;
        } finally {
            reader.close();
        }
    }
}
