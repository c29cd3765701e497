package org.acme.subscriber.test.delays;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.acme.subscriber.test.CapturedLogs;
import org.acme.subscriber.test.Scenarios;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;

/**
 * An operator deletes a waiting queue. Delayed copies go out mandatory, so RabbitMQ returns them and none is lost: on
 * the copies' own channel (the default {@code copy-channel}) every copy is confirmed before its original is acked,
 * whatever {@code retryPublish} says, so with DEFAULT as with CONFIRMED the original is requeued until the waiting
 * queue exists again. One ERROR names the missing queue. ({@link DeletedWaitingQueueOnTheDeliveryChannelTest}: DEFAULT
 * on the delivery's channel.)
 */
/**
 * Run by {@link org.acme.subscriber.test.WireBasicsTest}, which calls each of its methods in one application with the others.
 */
public interface DeletedWaitingQueueScenario {

    private Handlers handlers() {
        return Scenarios.bean(Handlers.class);
    }

    static final String DEFAULT = "t.deleted-waiting.default";
    static final String CONFIRMED = "t.deleted-waiting.confirmed";

    default void aDefaultCopyIsConfirmedTooSoTheOriginalIsRequeued() {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> {
                admin.delete(DEFAULT + ".retry");
                admin.publish(DEFAULT, "m");
            });
            // The original comes back (count 1) until the waiting queue exists again; then its copy waits there.
            await().atMost(Duration.ofSeconds(20)).until(() -> handlers().entries(DEFAULT).size() >= 2);
            assertEquals("1|null", handlers().entries(DEFAULT).get(1), "the original, requeued");
            RabbitAdmin.with(admin -> admin.declare(DEFAULT + ".retry", java.util.Map.of("x-dead-letter-exchange", "",
                    "x-dead-letter-routing-key", DEFAULT)));
            await().atMost(Duration.ofSeconds(20)).until(() -> handlers().entries(DEFAULT).contains("2|null"));
            assertTrue(logs.errors().stream().anyMatch(line -> line.contains("Queue '" + DEFAULT + ".retry' does not "
                    + "exist")), () -> "the missing queue is named: " + logs.errors());
        }
    }

    default void confirmedRequeuesTheOriginal() {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> {
                admin.delete(CONFIRMED + ".retry");
                admin.publish(CONFIRMED, "m");
            });
            // The original comes back (count 1) until the waiting queue exists again; then its copy waits there.
            await().atMost(Duration.ofSeconds(20)).until(() -> handlers().entries(CONFIRMED).size() >= 2);
            assertEquals("1|null", handlers().entries(CONFIRMED).get(1), "the original, requeued");
            RabbitAdmin.with(admin -> admin.declare(CONFIRMED + ".retry", java.util.Map.of("x-dead-letter-exchange", "",
                    "x-dead-letter-routing-key", CONFIRMED)));
            await().atMost(Duration.ofSeconds(20)).until(() -> handlers().entries(CONFIRMED).contains("2|null"));
            assertTrue(logs.errors().stream().anyMatch(line -> line.contains("Queue '" + CONFIRMED + ".retry' does not "
                    + "exist")), () -> "the missing queue is named: " + logs.errors());
        }
    }

    public static class Handlers {
        final List<String> log = new CopyOnWriteArrayList<>();

        List<String> entries(String queue) {
            return log.stream().filter(entry -> entry.startsWith(queue + "|")).map(e -> e.substring(queue.length() + 1))
                    .toList();
        }

        static Outcome answer(Delivery delivery, List<String> log) {
            log.add(delivery.queue() + "|" + delivery.attempt() + "|"
                    + delivery.properties().expiration().map(ttl -> String.valueOf(ttl.toMillis())).orElse(null));
            return delivery.attempt() == 1 ? Outcome.retryAfter(Duration.ofMillis(200)) : Outcome.ack();
        }

        @Subscriber(value = DEFAULT, delay = Delay.DLX_TTL)
        Outcome byDefault(String body, Delivery delivery) {
            return answer(delivery, log);
        }

        @Subscriber(value = CONFIRMED, delay = Delay.DLX_TTL, retryPublish = RetryPublish.CONFIRMED)
        Outcome confirmed(String body, Delivery delivery) {
            return answer(delivery, log);
        }
    }
}
