package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An operator deletes a dead-letter queue while messages still reach their cap. Copies and dead letters are
 * published mandatory, so the broker returns what it cannot route, and no message is lost: with CONFIRMED the
 * original is requeued; with DEFAULT (the original was acked already) the returned dead letter goes back to the work
 * queue. Once the queue is declared again, the messages land in it. RabbitMQ only: the in-process broker's idle wait
 * cannot end while a message circles between the work queue and a missing route.
 */
@Tag("wire")
class DeletedDeadLetterQueueTest {

    static final String CONFIRMED = "t.deleted-dlq.confirmed";
    static final String DEFAULT = "t.deleted-dlq.default";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(CONFIRMED, DEFAULT).withDeadLetterQueues().givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, CapturedLogs.class))
            // Each round of the loop below waits this pause (1 s by default); a tenth keeps the loop visible.
            .overrideConfigKey("quarkus.rabbitmq-subscriber.refused-copy-pause", "100ms");

    @Inject
    Handlers handlers;

    @Test
    void confirmedRequeuesTheOriginal() {
        notLost(CONFIRMED);
    }

    @Test
    void defaultPutsTheReturnedDeadLetterBackInTheWorkQueue() {
        notLost(DEFAULT);
    }

    private void notLost(String queue) {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> {
                admin.delete(queue + ".dead");
                admin.publish(queue, "m");
            });
            // The message reaches its cap again and again: its dead letter has nowhere to go.
            await().atMost(Duration.ofSeconds(20)).until(() -> handlers.attempts(queue) >= 6);
            assertTrue(logs.errors().stream().anyMatch(line -> line.contains("Queue '" + queue + ".dead' does not "
                    + "exist")), () -> "the missing queue is named: " + logs.errors());
            RabbitAdmin.with(admin -> {
                admin.declare(queue + ".dead", Map.of());
                await().atMost(Duration.ofSeconds(20)).until(() -> admin.depth(queue + ".dead") == 1);
                await().until(() -> admin.depth(queue) == 0);
                assertEquals("m", RabbitAdmin.body(admin.drain(queue + ".dead").get(0)));
            });
        }
    }

    public static class Handlers {
        final List<String> log = new CopyOnWriteArrayList<>();

        long attempts(String queue) {
            return log.stream().filter(queue::equals).count();
        }

        @Subscriber(value = CONFIRMED, maxAttempts = 2, deadLetter = CONFIRMED + ".dead", retryPublish = RetryPublish.CONFIRMED)
        Outcome confirmed(String body, Delivery delivery) {
            log.add(CONFIRMED);
            return Outcome.retry();
        }

        @Subscriber(value = DEFAULT, maxAttempts = 2, deadLetter = DEFAULT + ".dead")
        Outcome byDefault(String body, Delivery delivery) {
            log.add(DEFAULT);
            return Outcome.retry();
        }
    }
}
