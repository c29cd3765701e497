package org.acme.subscriber.test.serverretry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The server's delayed retry on RabbitMQ 4.3 (skipped on an older broker, where ServerRetryDelayRefusedTest runs):
 * shortened by configuration to 300 ms after the first failure, linear, bounded at 700 ms. The server holds the
 * payout at least 300, 600, 700 and 700 ms between its five deliveries (a retryAfter of an hour included), and its
 * delivery limit dead-letters it once, through the queue's route; the service copies nothing (no waiting queue).
 */
@Tag("wire")
class ServerRetryDelayOnRabbitMqTest extends BrokerScenarios {

    static final long[] WAITS_MS = { 300, 600, 700, 700 };

    @RegisterExtension
    @Order(1)
    static final WireBroker wire = WireBroker.queues(ServerRetryHandlers.QUEUES).needsRabbitMq43().givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(ServerRetryHandlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"" + ServerRetryHandlers.QUEUE + "\".retry-delay.min",
                    "300ms")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"" + ServerRetryHandlers.QUEUE + "\".retry-delay.max",
                    "700ms");

    @Inject
    ServerRetryHandlers handlers;

    @Test
    void theServerWaitsLongerAfterEachFailureAndItsLimitEndsTheLoop() throws Exception {
        publish(ServerRetryHandlers.QUEUE, "payout-1");
        until(() -> depth(ServerRetryHandlers.QUEUE + ".dead") == 1);
        assertEquals(List.of(1, 2, 3, 4, 5), handlers.attempts());
        for (int i = 0; i < WAITS_MS.length; i++) {
            long waitedMs = (handlers.times().get(i + 1) - handlers.times().get(i)) / 1_000_000;
            // The server's timer: a few ms of slack, never a quick retry.
            assertTrue(waitedMs >= WAITS_MS[i] - 5, "delivery " + (i + 2) + " came " + waitedMs + " ms after the one "
                    + "before, not " + WAITS_MS[i]);
        }
        assertEquals("payout-1", body(drain(ServerRetryHandlers.QUEUE + ".dead").get(0)));
        assertEquals(0, depth(ServerRetryHandlers.QUEUE));
        boolean waitingQueue = RabbitAdmin.withResult(admin -> admin.exists(ServerRetryHandlers.QUEUE + ".retry"));
        assertFalse(waitingQueue, "no waiting queue: the server waits");
    }
}
