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

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A dead-letter queue's own subscriber, typed as the docs show it ({@code void review(Order order, Delivery delivery)}),
 * never loses what reaches that queue, and never stops at it. A body it cannot decode (sent there at once, as
 * undecodable) and a message its handler fails on twice are parked in {@code <queue>.parked} with the reason, one ERROR
 * each, and the reader goes on with the dead letters behind them. Before (issue 35), the first such letter stopped the
 * reader, and every later dead letter waited unread.
 */
@Tag("wire")
class DeadLetterReaderTest {

    static final String ORDERS = "t.dlr.orders";
    static final String ORDERS_DEAD = ORDERS + ".dead";
    static final String PAYMENTS = "t.dlr.payments";
    static final String PAYMENTS_DEAD = PAYMENTS + ".dead";
    static final String ORDERS_PARKED = ORDERS_DEAD + ".parked";
    static final String PAYMENTS_PARKED = PAYMENTS_DEAD + ".parked";

    // Qualified: the Order record below shadows the annotation's simple name.
    @RegisterExtension
    @org.junit.jupiter.api.Order(1)
    static final WireBroker broker = WireBroker.queues(ORDERS, ORDERS_DEAD, ORDERS_PARKED, PAYMENTS,
            PAYMENTS_DEAD, PAYMENTS_PARKED).givesUrl();

    @RegisterExtension
    @org.junit.jupiter.api.Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Order.class, CapturedLogs.class));

    @Inject
    Handlers handlers;

    @Inject
    SubscriberStatus status;

    @Inject
    DeadLetters deadLetters;

    @Test
    void aDeadLetterItsReaderCannotDecodeIsParkedAndTheReaderGoesOn() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> admin.publish(ORDERS, "not json", "garbage-1"));
            await().atMost(Duration.ofSeconds(20)).until(() -> depth(ORDERS_PARKED) == 1);
            // The order that fails to its cap behind it is read.
            RabbitAdmin.with(admin -> admin.publish(ORDERS, "{\"id\":13}", "order-13"));
            await().atMost(Duration.ofSeconds(20)).until(() -> handlers.reviewed.size() == 1);
            assertEquals(13, handlers.reviewed.peek().id());
            assertEquals(0, depth(ORDERS_DEAD));
            assertEquals(1, consumers(ORDERS_DEAD), "the reader still consumes");
            assertTrue(status.notReady().isEmpty(), String.valueOf(status.notReady()));
            List<String> errors = logs.errors().stream().filter(line -> line.contains("on queue '" + ORDERS_DEAD + "'"))
                    .toList();
            assertEquals(1, errors.size(), errors::toString);
            assertTrue(errors.get(0).contains("parking it in queue '" + ORDERS_PARKED + "'"), errors::toString);
            // Where an operator finds it: peek shows it with why it was parked; the body is as dead-lettered.
            DeadLetter parked = deadLetters.peek(ORDERS_PARKED, 10).get(0);
            assertEquals("garbage-1", parked.messageId());
            assertTrue(parked.reason().contains("UndecodablePayloadException"), parked.reason());
            assertEquals("not json", parked.bodyPreview());
        }
    }

    @Test
    void aDeadLetterItsReaderFailsOnTwiceIsParked() throws Exception {
        RabbitAdmin.with(admin -> admin.publish(PAYMENTS, "{\"id\":7}", "payment-7"));
        await().atMost(Duration.ofSeconds(20)).until(() -> depth(PAYMENTS_PARKED) == 1);
        assertEquals(List.of(false, true), List.copyOf(handlers.paymentReviews), "a delivery and its redelivery");
        DeadLetter parked = deadLetters.peek(PAYMENTS_PARKED, 10).get(0);
        assertEquals(IllegalStateException.class.getName() + ": the review service is down", parked.reason());
        // It keeps the failure that dead-lettered it in the first place.
        assertEquals("declined", parked.exceptionMessage());
        assertEquals(PAYMENTS, parked.sourceQueue(), "a replay sends it back to the work queue");
        assertEquals(1, consumers(PAYMENTS_DEAD));
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
            throw new IllegalStateException("out of stock");
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
