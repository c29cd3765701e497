package org.acme.subscriber.test.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;

/**
 * A handler's outputs, written once and run on each broker: they leave only with the attempt that acks, once; an
 * output no queue takes fails the delivery like a throw, to its cap and dead-letter queue; a reply goes to the
 * request's reply-to with its correlation id; a reply to a request without one is a failure naming it.
 */
abstract class OutputsScenarios extends BrokerScenarios {

    static final String ORDERS = "o.orders";
    static final String ORDERS_DEAD = "o.orders.dead";
    static final String SHIPMENTS = "o.shipments";
    static final String UNROUTED = "o.unrouted";
    static final String UNROUTED_DEAD = "o.unrouted.dead";
    /** No queue of this name exists: an output sent there comes back. */
    static final String NOWHERE = "o.nowhere";
    static final String QUOTES = "o.quotes";
    static final String QUOTES_DEAD = "o.quotes.dead";
    static final String REPLIES = "o.replies";
    static final String SHIPPED = "o.shipped";
    static final String EVENTS = "o.events";
    static final String EXCHANGE = "o.order-events";
    static final String[] QUEUES = { ORDERS, ORDERS_DEAD, SHIPMENTS, UNROUTED, UNROUTED_DEAD, NOWHERE, QUOTES,
            QUOTES_DEAD, REPLIES, SHIPPED, EVENTS };

    static final Class<?>[] APPLICATION = { Handlers.class, CapturedLogs.class };

    @Inject
    Handlers handlers;

    @Test
    void theOutputsOfRetriedAttemptsNeverLeaveAndThoseOfTheAttemptThatAcksLeaveOnce() throws Exception {
        publish(ORDERS, "order-1");
        until(() -> handlers.shipments.size() == 1 && handlers.attempts("order-1").size() == 3);
        assertEquals(List.of(1, 2, 3), handlers.attempts("order-1"));
        assertEquals(List.of("order-1 shipped at attempt 3"), handlers.shipments);
        assertEquals(0, depth(ORDERS));
        assertEquals(0, depth(ORDERS_DEAD));
    }

    @Test
    void anOutputNoQueueTakesFailsTheDeliveryToItsCapAndDeadLetterQueue() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            publish(UNROUTED, "lost-1");
            until(() -> depth(UNROUTED_DEAD) == 1);
            assertEquals(List.of(1, 2, 3), handlers.attempts("lost-1"));
            Fetched dead = drain(UNROUTED_DEAD).get(0);
            assertEquals("lost-1", body(dead));
            String message = String.valueOf(header(dead, "x-exception-message"));
            assertTrue(message.contains("queue '" + NOWHERE + "'"), message);
            assertTrue(logs.errors().stream().anyMatch(line -> line.contains("queue '" + NOWHERE + "'")),
                    () -> "one ERROR names the destination: " + logs.errors());
        }
    }

    @Test
    void aReplyGoesToTheReplyToWithTheCorrelationId() throws Exception {
        declare(REPLIES);
        publish(QUOTES, new AMQP.BasicProperties.Builder().messageId("q-1").replyTo(REPLIES).correlationId("c-42")
                .build(), "quote-1");
        until(() -> depth(REPLIES) == 1);
        Fetched reply = drain(REPLIES).get(0);
        assertEquals("quote for quote-1", body(reply));
        assertEquals("c-42", reply.properties().getCorrelationId());
        assertEquals(0, depth(QUOTES));
    }

    @Test
    void aReplyToARequestWithoutAReplyToIsAFailureNamingIt() throws Exception {
        publish(QUOTES, "quote-2");
        until(() -> depth(QUOTES_DEAD) == 1);
        String message = String.valueOf(header(drain(QUOTES_DEAD).get(0), "x-exception-message"));
        assertTrue(message.contains("no reply-to"), message);
    }

    @Test
    void anOutputPublishedToAnExchangeReachesTheQueuesBoundToIt() throws Exception {
        publish(SHIPPED, "order-7");
        until(() -> handlers.events.size() == 1);
        assertEquals(List.of("order-7|order.shipped"), handlers.events);
    }

    public static class Handlers {
        final Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
        final List<String> shipments = new CopyOnWriteArrayList<>();
        final List<String> events = new CopyOnWriteArrayList<>();

        List<Integer> attempts(String body) {
            return attempts.getOrDefault(body, List.of());
        }

        private int attempt(String body, Delivery delivery) {
            attempts.computeIfAbsent(body, key -> new CopyOnWriteArrayList<>()).add(delivery.attempt());
            return delivery.attempt();
        }

        /** Sends a shipment at every attempt; only the third acks. */
        @Subscriber(value = ORDERS, maxAttempts = 3, deadLetter = ORDERS_DEAD)
        Outcome ship(String order, Delivery delivery, Outputs outputs) {
            int attempt = attempt(order, delivery);
            outputs.send(SHIPMENTS, order + " shipped at attempt " + attempt);
            return attempt < 3 ? Outcome.retry() : Outcome.ack();
        }

        @Subscriber(SHIPMENTS)
        void shipment(String shipment) {
            shipments.add(shipment);
        }

        @Subscriber(value = UNROUTED, maxAttempts = 3, deadLetter = UNROUTED_DEAD)
        Outcome sendNowhere(String body, Delivery delivery, Outputs outputs) {
            attempt(body, delivery);
            outputs.send(NOWHERE, body);
            return Outcome.ack();
        }

        @Subscriber(value = QUOTES, maxAttempts = 2, deadLetter = QUOTES_DEAD)
        Outcome quote(String request, Outputs outputs) {
            outputs.reply("quote for " + request);
            return Outcome.ack();
        }

        @Subscriber(SHIPPED)
        Outcome announce(String order, Outputs outputs) {
            outputs.publish(EXCHANGE, "order.shipped", order);
            return Outcome.ack();
        }

        @Subscriber(value = EVENTS, bindings = @Binding(exchange = EXCHANGE, keys = "order.*"))
        void event(String body, Delivery delivery) {
            events.add(body + "|" + delivery.routingKey());
        }
    }
}
