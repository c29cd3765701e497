package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.acme.subscriber.test.Scenarios;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;

/**
 * A retry count a publisher wrote beyond every range counts as the cap, as text or as a number alike: the message is
 * dead-lettered at its first failure. Before, the text beyond the long range counted as a first delivery (two more
 * attempts), while the same value as a number was clamped to the cap.
 */
/** Run by {@link InProcessBasicsTest}, which calls each of its methods in one application with the others. */
interface RetryCountClampScenario {

    default void aRetryCountBeyondEveryRangeIsTheCapAsTextAndAsANumber() {
        InProcessBroker broker = Scenarios.bean(InProcessBroker.class);
        Handler handler = Scenarios.bean(Handler.class);
        broker.publish("rc.orders", "as-text", Map.of("x-retry-count", "99999999999999999999"));
        broker.publish("rc.orders", "as-number", Map.of("x-retry-count", Long.MAX_VALUE));
        broker.publish("rc.orders", "as-small-text", Map.of("x-retry-count", "2"));
        broker.awaitIdle();
        assertEquals(1, handler.attempts("as-text"), "at the cap: dead-lettered at its first failure");
        assertEquals(1, handler.attempts("as-number"));
        assertEquals(2, handler.attempts("as-small-text"), "attempt 2 of 3, read from text: one more");
        List<String> dead = broker.messages("rc.orders.dead").stream()
                .map(message -> message.bodyAsString().replace("\"", "")).sorted().toList();
        assertEquals(List.of("as-number", "as-small-text", "as-text"), dead);
    }

    public static class Handler {
        private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();

        int attempts(String body) {
            AtomicInteger count = attempts.get(body);
            return count == null ? 0 : count.get();
        }

        @Subscriber(value = "rc.orders", maxAttempts = 3, deadLetter = "rc.orders.dead")
        void handle(String body, Delivery delivery) {
            attempts.computeIfAbsent(body.replace("\"", ""), ignored -> new AtomicInteger()).incrementAndGet();
            throw new IllegalStateException("payments are down");
        }
    }
}
