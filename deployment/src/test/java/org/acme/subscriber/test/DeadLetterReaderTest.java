package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A dead-letter queue's own subscriber, typed as the docs show it ({@code void review(Order order, Delivery delivery)}),
 * never loses what reaches that queue. A body it cannot decode (sent there at once, as undecodable) and a message its
 * handler fails on twice used to be rejected without requeue, and were gone. Now the message stays in the queue, the
 * subscriber stops with one ERROR, and readiness names the queue and the message; the other subscribers go on.
 */
@Tag("wire")
class DeadLetterReaderTest {

    static final String ORDERS = "t.dlr.orders";
    static final String ORDERS_DEAD = ORDERS + ".dead";
    static final String PAYMENTS = "t.dlr.payments";
    static final String PAYMENTS_DEAD = PAYMENTS + ".dead";

    // Qualified: the Order record below shadows the annotation's simple name.
    @RegisterExtension
    @org.junit.jupiter.api.Order(1)
    static final WireBroker broker = WireBroker.queues(ORDERS, ORDERS_DEAD, PAYMENTS, PAYMENTS_DEAD);

    @RegisterExtension
    @org.junit.jupiter.api.Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Order.class, CapturedLogs.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", WireBroker.URL);

    @Inject
    Handlers handlers;

    @Inject
    SubscriberStatus status;

    @Test
    void aDeadLetterItsReaderCannotDecodeStaysInTheQueue() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> admin.publish(ORDERS, "not json", "garbage-1"));
            await().atMost(Duration.ofSeconds(20)).until(() -> consumers(ORDERS_DEAD) == 0 && depth(ORDERS_DEAD) == 1);
            assertEquals(0, handlers.reviewed.size());
            String why = status.notReady().get("queue " + ORDERS_DEAD);
            assertTrue(why != null && why.contains("message-id garbage-1") && why.contains("cannot be decoded"),
                    String.valueOf(status.notReady()));
            List<String> errors = logs.errors().stream().filter(line -> line.contains("on queue '" + ORDERS_DEAD + "'"))
                    .toList();
            assertEquals(1, errors.size(), errors::toString);
            assertTrue(errors.get(0).contains("leaving it in queue '" + ORDERS_DEAD + "' and stopping this subscriber"),
                    errors::toString);
            // The message is there, as it was dead-lettered.
            assertEquals("not json", RabbitAdmin.body(RabbitAdmin.withResult(admin -> admin.drain(ORDERS_DEAD)).get(0)));
        }
    }

    @Test
    void aDeadLetterItsReaderFailsOnTwiceStaysInTheQueue() throws Exception {
        RabbitAdmin.with(admin -> admin.publish(PAYMENTS, "{\"id\":7}", "payment-7"));
        await().atMost(Duration.ofSeconds(20)).until(() -> consumers(PAYMENTS_DEAD) == 0 && depth(PAYMENTS_DEAD) == 1);
        assertEquals(List.of(false, true), List.copyOf(handlers.paymentReviews), "a delivery and its redelivery");
        assertTrue(status.notReady().get("queue " + PAYMENTS_DEAD).contains("payment-7"),
                String.valueOf(status.notReady()));
        // The work queue's subscriber is untouched.
        assertEquals(1, consumers(PAYMENTS));
    }

    private static long depth(String queue) {
        return RabbitAdmin.withResult(admin -> admin.depth(queue));
    }

    private static int consumers(String queue) {
        return RabbitAdmin.withResult(admin -> admin.consumers(queue));
    }

    public record Order(int id) {
    }

    public static class Handlers {
        final Queue<Order> reviewed = new ConcurrentLinkedQueue<>();
        final Queue<Boolean> paymentReviews = new ConcurrentLinkedQueue<>();

        @Subscriber(value = ORDERS, maxAttempts = 2, deadLetter = ORDERS_DEAD)
        void order(Order order) {
        }

        @Subscriber(ORDERS_DEAD)
        void review(Order order, Delivery delivery) {
            reviewed.add(order);
        }

        @Subscriber(value = PAYMENTS, maxAttempts = 2, deadLetter = PAYMENTS_DEAD)
        void payment(Order order) {
            throw new IllegalStateException("declined");
        }

        @Subscriber(PAYMENTS_DEAD)
        void reviewPayment(Order order, Delivery delivery) {
            paymentReviews.add(delivery.redelivered());
            throw new IllegalStateException("the review service is down");
        }
    }
}
