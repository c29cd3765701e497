package org.acme.subscriber.test.delays;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An IN_SERVICE copy belongs to its subscription, not to the connection it was held on: RabbitMQ closes the
 * connection ({@code rabbitmqctl close_connection}) while the copy waits, the copy falls due while the client is
 * still reconnecting, and it is published once the connection is back.
 */
@Tag("wire")
class InServiceDelayAcrossConnectionCutTest {

    static final String QUEUE = "t.inservice.cut";
    static final String CONNECTION = "inservice-cut-test-" + ProcessHandle.current().pid();

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION);

    @Inject
    Handler handler;

    @Inject
    SubscriberStatus status;

    @Test
    void theHeldCopyIsPublishedOnceTheConnectionIsBack() throws Exception {
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "busy"));
        await().until(() -> handler.retryCounts.size() == 1 && status.heldCopies(QUEUE) == 1);
        List<String> connections = RabbitAdmin.connectionsNamed(CONNECTION);
        assertEquals(1, connections.size(), connections::toString);
        RabbitAdmin.rabbitmqctl("close_connection", connections.get(0).substring(0, connections.get(0).indexOf('\t')),
                "closed by test");
        await().atMost(Duration.ofSeconds(30)).until(() -> handler.retryCounts.size() == 2);
        assertEquals(List.of(1, 2), handler.retryCounts, "the copy came back once, with the count raised");
        assertEquals(0, status.heldCopies(QUEUE));
        assertTrue(handler.received.get(1) - handler.received.get(0) >= 1000, "not before its delay");
    }

    public static class Handler {
        final List<Integer> retryCounts = new CopyOnWriteArrayList<>();
        final List<Long> received = new CopyOnWriteArrayList<>();

        @Subscriber(QUEUE)
        Outcome handle(String body, Delivery delivery) {
            received.add(System.currentTimeMillis());
            retryCounts.add(delivery.attempt());
            // Due one second later: the client is still reconnecting then (it tries every 2 seconds).
            return delivery.attempt() == 1 ? Outcome.retryAfter(Duration.ofSeconds(1)) : Outcome.ack();
        }
    }
}
