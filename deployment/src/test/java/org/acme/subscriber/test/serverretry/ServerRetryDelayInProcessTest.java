package org.acme.subscriber.test.serverretry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The server's delayed retry on the in-process broker following RabbitMQ 4.3 ({@code server-version=4.3}), on its
 * paused clock: the server holds the failed payout 10 s, then 20 s, then 30 s twice (the bound), not a millisecond
 * less; a {@code retryAfter} of an hour waits what the server says; the fifth delivery is the last and the queue's
 * dead-letter route takes it. Nothing is copied: no waiting queue, the queue's own delivery count.
 */
class ServerRetryDelayInProcessTest extends BrokerScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(ServerRetryHandlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.in-process.server-version", "4.3");

    @Inject
    InProcessBroker broker;

    @Inject
    ServerRetryHandlers handlers;

    @Test
    void theServerWaitsLongerAfterEachFailureAndItsLimitEndsTheLoop() throws Exception {
        publish(ServerRetryHandlers.QUEUE, "payout-1");
        until(() -> !handlers.attempts().isEmpty());
        assertEquals(List.of(1), handlers.attempts(), "the first delivery, then the server holds it");
        int[] waits = { 10, 20, 30, 30 };
        for (int i = 0; i < waits.length; i++) {
            int before = i + 1;
            broker.advance(Duration.ofSeconds(waits[i]).minusMillis(1));
            assertEquals(before, handlers.attempts().size(), "not before " + waits[i] + " s");
            broker.advance(Duration.ofMillis(1));
            until(() -> handlers.attempts().size() == before + 1);
        }
        until(() -> depth(ServerRetryHandlers.QUEUE + ".dead") == 1);
        assertEquals(List.of(1, 2, 3, 4, 5), handlers.attempts());
        assertEquals("payout-1", body(drain(ServerRetryHandlers.QUEUE + ".dead").get(0)));
        assertEquals(0, depth(ServerRetryHandlers.QUEUE));
        var arguments = broker.queue(ServerRetryHandlers.QUEUE).arguments();
        assertEquals("failed", String.valueOf(arguments.get("x-delayed-retry-type")));
        assertEquals(10_000L, ((Number) arguments.get("x-delayed-retry-min")).longValue());
        assertEquals(30_000L, ((Number) arguments.get("x-delayed-retry-max")).longValue());
        assertEquals(4L, ((Number) arguments.get("x-delivery-limit")).longValue());
    }
}
