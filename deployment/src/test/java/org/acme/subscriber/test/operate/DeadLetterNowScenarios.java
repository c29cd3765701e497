package org.acme.subscriber.test.operate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;

/**
 * {@code Outcome.deadLetter(reason)} and {@code deadLetterOn}, written once and run on each broker: to the dead-letter
 * queue at once whatever attempts remain, with the reason (classic) or through the queue's route (quorum), a drop with
 * one ERROR where there is no dead-letter queue; a failure of a {@code deadLetterOn} type (a subtype too) goes there at
 * once with its exception headers, any other failure is retried as before.
 */
abstract class DeadLetterNowScenarios extends BrokerScenarios {

    static final String CARDS = "d.cards";
    static final String CARDS_DEAD = "d.cards.dead";
    static final String PAYOUTS = "d.payouts";
    static final String PAYOUTS_DEAD = "d.payouts.dead";
    static final String UNCAPPED = "d.uncapped";
    static final String PARSED = "d.parsed";
    static final String PARSED_DEAD = "d.parsed.dead";
    static final String[] QUEUES = { CARDS, CARDS_DEAD, PAYOUTS, PAYOUTS_DEAD, UNCAPPED, PARSED, PARSED_DEAD };

    static final Class<?>[] APPLICATION = { Handlers.class, CapturedLogs.class };

    @Inject
    Handlers handlers;

    @Test
    void aClassicDeadLetterGoesAtOnceWithItsReason() throws Exception {
        publish(CARDS, "card-1");
        until(() -> depth(CARDS_DEAD) == 1);
        assertEquals(1, handlers.attempts("card-1"), "handled once, four attempts left unused");
        Fetched dead = drain(CARDS_DEAD).get(0);
        assertEquals("card-1", body(dead));
        assertEquals("card closed", String.valueOf(header(dead, Outcome.DEAD_LETTER_REASON_HEADER)));
        assertEquals(1, ((Number) header(dead, "x-retry-count")).intValue());
        assertEquals(0, depth(CARDS));
    }

    @Test
    void aQuorumDeadLetterGoesThroughTheQueuesRoute() throws Exception {
        publish(PAYOUTS, "payout-1");
        until(() -> depth(PAYOUTS_DEAD) == 1);
        assertEquals(1, handlers.attempts("payout-1"));
        Fetched dead = drain(PAYOUTS_DEAD).get(0);
        Object deaths = header(dead, "x-death");
        assertTrue(deaths instanceof List<?> list && String.valueOf(((Map<?, ?>) list.get(0)).get("reason"))
                .equals("rejected"), String.valueOf(deaths));
        assertEquals(0, depth(PAYOUTS));
    }

    @Test
    void withoutADeadLetterQueueItIsDroppedWithOneError() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            publish(UNCAPPED, "gone-1");
            until(() -> handlers.attempts("gone-1") == 1 && depth(UNCAPPED) == 0);
            List<String> errors = logs.errors().stream().filter(line -> line.contains("has no dead-letter queue"))
                    .toList();
            assertEquals(1, errors.size(), String.join("\n", logs.errors()));
            assertTrue(errors.get(0).contains("queue '" + UNCAPPED + "'"), errors.get(0));
        }
    }

    @Test
    void aFailureOfADeadLetterOnTypeGoesAtOnceAndOthersAreRetried() throws Exception {
        publish(PARSED, "not a number");
        until(() -> depth(PARSED_DEAD) == 1);
        assertEquals(1, handlers.attempts("not a number"), "NumberFormatException is an IllegalArgumentException");
        Fetched dead = drain(PARSED_DEAD).get(0);
        assertEquals(NumberFormatException.class.getName(), String.valueOf(header(dead, "x-exception-type")));

        publish(PARSED, "flaky");
        until(() -> depth(PARSED_DEAD) == 1);
        assertEquals(3, handlers.attempts("flaky"), "an IllegalStateException is retried to the cap");
    }

    public static class Handlers {
        final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        final List<String> seen = new CopyOnWriteArrayList<>();

        int attempts(String body) {
            AtomicInteger count = attempts.get(body);
            return count == null ? 0 : count.get();
        }

        private void attempt(String body) {
            attempts.computeIfAbsent(body, key -> new AtomicInteger()).incrementAndGet();
        }

        @Subscriber(value = CARDS, maxAttempts = 5, deadLetter = CARDS_DEAD)
        Outcome card(String body) {
            attempt(body);
            return Outcome.deadLetter("card closed");
        }

        @Subscriber(value = PAYOUTS, type = QueueType.QUORUM, maxAttempts = 5, deadLetter = PAYOUTS_DEAD)
        Outcome payout(String body) {
            attempt(body);
            return Outcome.deadLetter("account frozen");
        }

        @Subscriber(UNCAPPED)
        Outcome uncapped(String body) {
            attempt(body);
            return Outcome.deadLetter("nowhere to go");
        }

        @Subscriber(value = PARSED, maxAttempts = 3, deadLetter = PARSED_DEAD, deadLetterOn = IllegalArgumentException.class)
        void parse(String body) {
            attempt(body);
            if (body.equals("flaky")) {
                throw new IllegalStateException("not now");
            }
            Integer.parseInt(body);
        }
    }
}
