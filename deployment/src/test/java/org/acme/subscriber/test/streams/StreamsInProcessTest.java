package org.acme.subscriber.test.streams;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The stream scenarios on the in-process broker, its clock paused, emulating RabbitMQ 4.0; and a retryAfter on a log,
 * which waits in place on the virtual clock: nothing passes it until the clock has moved.
 */
class StreamsInProcessTest extends StreamScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION).addClasses(Waiting.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            // As RabbitMQ 4.0 (filters came with 3.13; the in-process broker emulates 3.10 by default, and refuses them).
            .overrideConfigKey("quarkus.rabbitmq-subscriber.in-process.server-version", "4");

    @Inject
    InProcessBroker broker;

    @Inject
    Waiting waiting;

    @Override
    void until(BooleanSupplier condition) {
        broker.awaitIdle();
        assertTrue(condition.getAsBoolean(), "not so once the in-process broker is idle");
    }

    @Override
    long depth(String queue) {
        return broker.messages(queue).size();
    }

    @Test
    void aRetryAfterWaitsInPlaceOnTheVirtualClock() {
        send("p.stream.waiting", "later");
        send("p.stream.waiting", "behind");
        broker.awaitIdle();
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of("later"), waiting.seen,
                "the first waits a minute in place; the second waits behind it");
        broker.advance(Duration.ofMinutes(1));
        broker.awaitIdle();
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of("later", "later", "behind"), waiting.seen);
    }

    public static class Waiting {
        final java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

        @io.quarkiverse.rabbitmq.subscriber.Subscriber(value = "p.stream.waiting", type = io.quarkiverse.rabbitmq.subscriber.QueueType.STREAM)
        io.quarkiverse.rabbitmq.subscriber.Outcome on(String body, io.quarkiverse.rabbitmq.subscriber.Delivery delivery) {
            seen.add(body);
            return body.equals("later") && delivery.attempt() == 1
                    ? io.quarkiverse.rabbitmq.subscriber.Outcome.retryAfter(Duration.ofMinutes(1))
                    : io.quarkiverse.rabbitmq.subscriber.Outcome.ack();
        }
    }
}
