package org.acme.subscriber.test.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;

/**
 * The subscriber scenarios of caps and dead letters, written once: each subclass runs them on one broker (the real
 * RabbitMQ, the in-process one), and both must pass. Messages are published and queues inspected through the
 * application's own broker connection, so the scenarios read the same on both.
 */
abstract class RetryScenarios extends BrokerScenarios {

    static final String REFUNDS = "s.refunds";
    static final String REFUNDS_DEAD = "s.refunds.dead";
    static final String THROWS = "s.throws";
    static final String THROWS_DEAD = "s.throws.dead";
    static final String PAYOUTS = "s.payouts";
    static final String PAYOUTS_DEAD = "s.payouts.dead";
    static final String CONFIRMED = "s.confirmed";
    static final String CONFIRMED_DEAD = "s.confirmed.dead";
    static final String UNCAPPED = "s.uncapped";
    static final String[] QUEUES = { REFUNDS, REFUNDS_DEAD, THROWS, THROWS_DEAD, PAYOUTS, PAYOUTS_DEAD, CONFIRMED,
            CONFIRMED_DEAD, UNCAPPED };

    static final Class<?>[] APPLICATION = { Handlers.class, CapturedLogs.class };

    @Inject
    Handlers handlers;

    @Test
    void aRetriedRefundGetsFiveDeliveriesThenLandsInTheDeadLetterQueue() throws Exception {
        publish(REFUNDS, "refund-retry");
        until(() -> depth(REFUNDS_DEAD) == 1);
        assertEquals(List.of(1, 2, 3, 4, 5), handlers.attempts("refund-retry"));
        List<Fetched> dead = drain(REFUNDS_DEAD);
        assertEquals(1, dead.size());
        assertEquals("refund-retry", body(dead.get(0)));
        assertEquals(5, ((Number) header(dead.get(0), "x-retry-count")).intValue());
        assertEquals(null, header(dead.get(0), "x-death"), "the runtime's dead letter carries no x-death");
        assertEquals(0, depth(REFUNDS));
    }

    @Test
    void aRefundWhoseHandlerThrowsIsDeadLetteredWithTheException() throws Exception {
        publish(THROWS, "refund-throws");
        until(() -> depth(THROWS_DEAD) == 1);
        assertEquals(List.of(1, 2, 3, 4, 5), handlers.attempts("refund-throws"));
        Fetched dead = drain(THROWS_DEAD).get(0);
        assertEquals(5, ((Number) header(dead, "x-retry-count")).intValue());
        assertEquals(IllegalStateException.class.getName(), String.valueOf(header(dead, "x-exception-type")));
        assertEquals("card processor down for refund-throws", String.valueOf(header(dead, "x-exception-message")));
        assertEquals(0, depth(THROWS));
    }

    @Test
    void aDroppedRefundDoesNotReachTheDeadLetterQueue() throws Exception {
        publish(REFUNDS, "refund-drop");
        until(() -> handlers.attempts("refund-drop").size() == 1 && depth(REFUNDS) == 0);
        publish(REFUNDS, "refund-ack");
        until(() -> handlers.attempts("refund-ack").size() == 1 && depth(REFUNDS) == 0);
        assertEquals(0, depth(REFUNDS_DEAD));
    }

    @Test
    void aPayoutOnAQuorumQueueGetsFiveDeliveriesCountedByTheServer() throws Exception {
        publish(PAYOUTS, "payout-retry");
        until(() -> depth(PAYOUTS_DEAD) == 1);
        assertEquals(List.of("none", "1", "2", "3", "4"), handlers.redeliveryCounts("payout-retry"));
        Fetched dead = drain(PAYOUTS_DEAD).get(0);
        assertEquals("payout-retry", body(dead));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> deaths = (List<Map<String, Object>>) header(dead, "x-death");
        assertEquals("delivery_limit", String.valueOf(deaths.get(0).get("reason")));
        assertEquals(PAYOUTS, String.valueOf(deaths.get(0).get("queue")));
        assertEquals(0, depth(PAYOUTS));
    }

    @Test
    void confirmedCopiesAndDeadLettersArriveAsTheDefaultOnesDo() throws Exception {
        publish(CONFIRMED, "confirmed-retry");
        until(() -> depth(CONFIRMED_DEAD) == 1);
        assertEquals(List.of(1, 2), handlers.attempts("confirmed-retry"));
        assertEquals(2, ((Number) header(drain(CONFIRMED_DEAD).get(0), "x-retry-count")).intValue());
        assertEquals(0, depth(CONFIRMED));
    }

    @Test
    void withoutACapAFailingMessageIsDeliveredTwiceThenDroppedWithOneError() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            publish(UNCAPPED, "poison");
            until(() -> handlers.attempts("poison").size() == 2 && depth(UNCAPPED) == 0);
            List<String> errors = logs.errors().stream().filter(line -> line.contains("poison")
                    || line.contains("failed for")).toList();
            assertEquals(1, errors.size(), () -> "one ERROR for the poison message: " + errors);
            assertTrue(errors.get(0).contains("rejecting it without requeue"), errors.get(0));
            assertEquals(1, logs.warnings().stream().filter(line -> line.contains("failed for")).count());
        }
    }

    public static class Handlers {
        final List<String> log = new CopyOnWriteArrayList<>();

        List<Integer> attempts(String body) {
            return log.stream().filter(entry -> entry.startsWith(body + ":"))
                    .map(entry -> Integer.parseInt(entry.substring(body.length() + 1))).toList();
        }

        List<String> redeliveryCounts(String body) {
            return log.stream().filter(entry -> entry.startsWith(body + "#"))
                    .map(entry -> entry.substring(body.length() + 1)).toList();
        }

        @Subscriber(value = REFUNDS, maxAttempts = 5, deadLetter = REFUNDS_DEAD)
        Outcome refund(String body, Delivery delivery) {
            log.add(body + ":" + delivery.attempt());
            return switch (body) {
                case "refund-drop" -> Outcome.drop();
                case "refund-ack" -> Outcome.ack();
                default -> Outcome.retry();
            };
        }

        @Subscriber(value = THROWS, maxAttempts = 5, deadLetter = THROWS_DEAD)
        void throwing(String body, Delivery delivery) {
            log.add(body + ":" + delivery.attempt());
            throw new IllegalStateException("card processor down for " + body);
        }

        @Subscriber(value = PAYOUTS, type = QueueType.QUORUM, maxAttempts = 5, deadLetter = PAYOUTS_DEAD)
        Outcome payout(String body, Delivery delivery) {
            log.add(body + "#" + (delivery.redeliveryCount().isPresent()
                    ? String.valueOf(delivery.redeliveryCount().getAsInt())
                    : "none"));
            return Outcome.retry();
        }

        @Subscriber(value = CONFIRMED, maxAttempts = 2, deadLetter = CONFIRMED_DEAD, retryPublish = RetryPublish.CONFIRMED)
        Outcome confirmed(String body, Delivery delivery) {
            log.add(body + ":" + delivery.attempt());
            return Outcome.retry();
        }

        @Subscriber(UNCAPPED)
        void uncapped(String body, Delivery delivery) {
            log.add(body + ":" + delivery.attempt());
            throw new IllegalArgumentException("cannot handle " + body);
        }
    }
}
