package org.acme.subscriber.test.streams;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.OffsetSpecification;

import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The stream scenarios on RabbitMQ's stream protocol (RabbitMQ 4.0.5 and 4.3.6 in CI, whose stream listeners
 * .ci/rabbitmq4 and .ci/rabbitmq43 enable; skipped on the stock 3.10.8, naming rabbitmq_stream); and what only a real
 * broker shows: a message written before the application started is read from the first offset, and the offset the
 * consumer stores on the server under the application's name.
 */
@Tag("wire")
@Tag("stream")
class StreamsOnRabbitMqTest extends StreamScenarios {

    static final String CONSUMER = "t-streams-app";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.stream.orders", "t.stream.orders.dead", "t.stream.regions")
            .needsStreams().givesUrl().before(admin -> {
                // Written before the application starts: a consumer from "first" reads what the log already holds.
                admin.declare("t.stream.orders", java.util.Map.of("x-queue-type", "stream"));
                admin.publish("t.stream.orders", "early");
            });

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION))
            .overrideConfigKey("quarkus.application.name", CONSUMER)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.stream-port", String.valueOf(WireBroker.STREAM_PORT));

    @Override
    void until(BooleanSupplier condition) {
        await().atMost(Duration.ofSeconds(30)).until(condition::getAsBoolean);
    }

    @Override
    long depth(String queue) {
        return RabbitAdmin.withResult(admin -> admin.depth(queue));
    }

    @Test
    void whatTheLogHeldBeforeTheStartIsReadAndTheSettledOffsetIsStored() {
        until(() -> handlers.bodies("t.stream.orders").contains("early"));
        assertEquals("early|1|0", handlers.log.get(0), "read from the first offset, before anything published later");
        send("t.stream.orders", "later");
        until(() -> handlers.bodies("t.stream.orders").contains("later"));
        String later = handlers.log.stream().filter(line -> line.startsWith("later|")).findFirst().orElseThrow();
        long offset = Long.parseLong(later.substring(later.lastIndexOf('|') + 1));
        // The consumer stores the offset of the last settled message under the application's name.
        try (Environment environment = Environment.builder()
                .uri("rabbitmq-stream://guest:guest@127.0.0.1:" + WireBroker.STREAM_PORT + "/%2f")
                // The default factory loads compression libraries the extension leaves out.
                .compressionCodecFactory(compression -> null).build()) {
            await().atMost(Duration.ofSeconds(10)).until(() -> storedOffset(environment) >= offset);
        }
    }

    /** What the server stored under the application's consumer name, read through a consumer of that name. */
    private static long storedOffset(Environment environment) {
        com.rabbitmq.stream.Consumer reader = environment.consumerBuilder().stream("t.stream.orders").name(CONSUMER)
                .offset(OffsetSpecification.next()).manualTrackingStrategy().builder()
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
