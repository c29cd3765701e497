package org.acme.subscriber.test.operate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Singleton;

import org.acme.subscriber.test.Scenarios;
import org.awaitility.Awaitility;

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;

/**
 * A message whose handler fails until a fault is fixed uses up its attempts and lands in the dead-letter queue, where
 * {@link DeadLetters#peek} shows it with its failure and the queue it came from; once the fault is fixed,
 * {@link DeadLetters#replay} moves it back, it is handled as a first delivery, and the dead-letter queue is empty. The
 * publisher's per-message TTL does not follow it into the dead-letter queue, where it would lose it.
 */
/**
 * Run by {@link org.acme.subscriber.test.WireBasicsTest}, which calls each of its methods in one application with the others.
 */
public interface DeadLettersScenario {

    private DeadLetters deadLetters() {
        return Scenarios.bean(DeadLetters.class);
    }

    private RabbitPublisher publisher() {
        return Scenarios.bean(RabbitPublisher.class);
    }

    private Refunds refunds() {
        return Scenarios.bean(Refunds.class);
    }

    static final String REFUNDS = "t.dlq.app.refunds";
    static final String REFUNDS_DEAD = REFUNDS + ".dead";

    default void aDeadLetterIsShownThenReplayedOnceTheFaultIsFixed() {
        publisher().sendConfirmedAndAwait(
                io.quarkiverse.rabbitmq.subscriber.OutgoingMessage.toQueue(REFUNDS).payload("refund r-1").messageId("r-1")
                        .expiration(Duration.ofSeconds(2)));
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> depth(REFUNDS_DEAD) == 1);
        assertEquals(List.of(1, 2), refunds().attempts.get("r-1"), "both attempts failed");

        List<DeadLetter> waiting = deadLetters().peek(REFUNDS_DEAD, 10);
        assertEquals(1, waiting.size());
        DeadLetter dead = waiting.get(0);
        assertEquals("r-1", dead.messageId());
        assertEquals(REFUNDS, dead.sourceQueue());
        assertEquals(IllegalStateException.class.getName(), dead.exceptionType());
        assertEquals("the card service is down", dead.exceptionMessage());
        assertEquals(2, dead.attempts());
        assertEquals("refund r-1", dead.bodyPreview());
        // Past the 2 s TTL the original was published with: the dead letter went without it, and waits.
        Awaitility.await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(8))
                .until(() -> depth(REFUNDS_DEAD) == 1);

        refunds().fixed = true;
        assertEquals(1, deadLetters().replay(REFUNDS_DEAD, 10));
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> refunds().handled.containsKey("r-1"));
        Delivery replayed = refunds().handled.get("r-1");
        assertEquals(1, replayed.attempt(), "a replayed message starts its attempts over");
        assertEquals(1, ((Number) replayed.header(DeadLetters.REPLAYED_HEADER)).intValue());
        assertEquals(List.of(1, 2, 1), refunds().attempts.get("r-1"));
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> depth(REFUNDS_DEAD) == 0 && depth(REFUNDS) == 0);
        assertEquals(List.of(), deadLetters().peek(REFUNDS_DEAD, 10));
    }

    private static long depth(String queue) {
        return RabbitAdmin.withResult(admin -> admin.depth(queue));
    }

    /** A singleton, not a normal-scoped bean: the test reads its fields, which a client proxy would not have. */
    @Singleton
    public static class Refunds {

        /** The fault: the handler fails until it is fixed. */
        volatile boolean fixed;
        final Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
        final Map<String, Delivery> handled = new ConcurrentHashMap<>();

        @Subscriber(value = REFUNDS, maxAttempts = 2, deadLetter = REFUNDS_DEAD)
        void refund(String body, Delivery delivery) {
            attempts.computeIfAbsent(delivery.messageId(), id -> new CopyOnWriteArrayList<>())
                    .add(delivery.attempt());
            if (!fixed) {
                throw new IllegalStateException("the card service is down");
            }
            handled.put(delivery.messageId(), delivery);
        }
    }
}
