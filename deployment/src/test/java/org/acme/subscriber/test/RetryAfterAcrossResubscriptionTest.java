package org.acme.subscriber.test;

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
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A copy held in the service for a retryAfter survives its subscriber moving to a new channel (the queue was deleted
 * under it, so the runtime subscribes again): it comes back when it is due, not early, and nothing claims it was
 * published "on shutdown".
 */
@Tag("wire")
class RetryAfterAcrossResubscriptionTest {

    static final String QUEUE = "t.retry-after.resubscribe";
    static final Duration DELAY = Duration.ofSeconds(5);

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, CapturedLogs.class));

    @Inject
    Handler handler;

    @Test
    void theHeldCopyMovesToTheNewChannelAndComesBackWhenDue() {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> admin.publish(QUEUE, "busy"));
            await().until(() -> handler.attempts.size() == 1);
            RabbitAdmin.with(admin -> {
                admin.delete(QUEUE);
                await().atMost(Duration.ofSeconds(15)).until(() -> admin.exists(QUEUE) && admin.consumers(QUEUE) == 1);
            });
            await().atMost(Duration.ofSeconds(20)).until(() -> handler.attempts.size() == 2);
            long waited = handler.attempts.get(1) - handler.attempts.get(0);
            assertTrue(waited >= DELAY.toMillis() - 100, "the copy came back after its delay, not early: " + waited);
            assertEquals(2, handler.retryCounts.get(1));
            assertEquals(List.of(), logs.infos().stream().filter(line -> line.contains("early")).toList());
        }
    }

    public static class Handler {
        final List<Long> attempts = new CopyOnWriteArrayList<>();
        final List<Integer> retryCounts = new CopyOnWriteArrayList<>();

        @Subscriber(QUEUE)
        Outcome handle(String body, Delivery delivery) {
            attempts.add(System.currentTimeMillis());
            retryCounts.add(delivery.attempt());
            return delivery.attempt() == 1 ? Outcome.retryAfter(DELAY) : Outcome.ack();
        }
    }
}
