package org.acme.subscriber.test.delays;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.GetResponse;

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A held {@code IN_SERVICE} copy that RabbitMQ refuses for good is not retried until the stop (and lost then): while
 * the copies wait, an operator's policy caps their queues at 100 bytes, rejecting what is published past it; each copy
 * is refused ({@code basic.nack}) three times in a row, then goes to the subscription's dead-letter queue, or, for a
 * subscription without one, to {@code <queue>.parked}, which is declared for it; each says why, with an ERROR naming
 * the message, and a replay sends it back once the policy is gone.
 */
@Tag("wire")
class RefusedHeldCopyTest {

    static final String ORDERS = "t.refused-held.orders";
    static final String DEAD = ORDERS + ".dead";
    static final String NOTES = "t.refused-held.notes";
    static final String PARKED = NOTES + ".parked";
    static final String POLICY = "t-refused-held-" + ProcessHandle.current().pid();
    static final String BODY = "x".repeat(300);

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(ORDERS, DEAD, NOTES, PARKED).givesUrl()
            .before(admin -> clearPolicy());

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, CapturedLogs.class))
            .setAfterAllCustomizer(RefusedHeldCopyTest::clearPolicy);

    @Inject
    Handlers handlers;

    @Inject
    SubscriberStatus status;

    @Inject
    DeadLetters deadLetters;

    @Test
    void aCopyRefusedForGoodGoesToTheDeadLetterQueueOrIsParked() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> {
                admin.publish(ORDERS, BODY, "order-1");
                admin.publish(NOTES, BODY, "note-1");
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> status.heldCopies(ORDERS) == 1
                    && status.heldCopies(NOTES) == 1);
            RabbitAdmin.rabbitmqctl("set_policy", POLICY, "^t\\.refused-held\\.(orders|notes)$",
                    "{\"max-length-bytes\":100,\"overflow\":\"reject-publish\"}", "--apply-to", "queues");

            await().atMost(Duration.ofSeconds(30)).until(() -> RabbitAdmin.withResult(admin -> admin.depth(DEAD) == 1
                    && admin.exists(PARKED) && admin.depth(PARKED) == 1));
            assertEquals(0, status.heldCopies(ORDERS), "no longer held");
            assertEquals(0, status.heldCopies(NOTES));
            DeadLetter dead = deadLetters.peek(DEAD, 5).get(0);
            assertEquals("order-1", dead.messageId());
            assertEquals(ORDERS, dead.sourceQueue());
            assertTrue(dead.reason().contains("RabbitMQ refused the delayed copy to queue '" + ORDERS + "': the broker "
                    + "nacked the message, 3 times in a row"), dead.reason());
            GetResponse parked = RabbitAdmin.withResult(admin -> admin.take(PARKED));
            assertEquals(BODY, new String(parked.getBody(), StandardCharsets.UTF_8));
            assertEquals("note-1", parked.getProps().getMessageId());
            List<String> errors = logs.errors();
            assertTrue(errors.stream().anyMatch(line -> line.contains("delayed copy of message-id order-1")
                    && line.contains("went to queue '" + DEAD + "'")), errors.toString());
            assertTrue(errors.stream().anyMatch(line -> line.contains("delayed copy of message-id note-1")
                    && line.contains("went to queue '" + PARKED + "'")), errors.toString());
        }

        // The operator lifts the policy: a replay sends the order back, and its handler takes it.
        clearPolicy();
        assertEquals(1, deadLetters.replay(DEAD, 10));
        await().atMost(Duration.ofSeconds(10)).until(() -> handlers.calls.get("order-1").get() == 2);
    }

    static void clearPolicy() {
        try {
            if (RabbitAdmin.rabbitmqctl("list_policies").contains(POLICY)) {
                RabbitAdmin.rabbitmqctl("clear_policy", POLICY);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Each message comes back in 3 s the first time (held in the service), and is acked the next. */
    @Singleton
    public static class Handlers {
        final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        @Subscriber(value = ORDERS, maxAttempts = 5, deadLetter = DEAD)
        Outcome order(String body, io.quarkiverse.rabbitmq.subscriber.Delivery delivery) {
            return handle(delivery);
        }

        @Subscriber(NOTES)
        Outcome note(String body, io.quarkiverse.rabbitmq.subscriber.Delivery delivery) {
            return handle(delivery);
        }

        private Outcome handle(io.quarkiverse.rabbitmq.subscriber.Delivery delivery) {
            int call = calls.computeIfAbsent(delivery.messageId(), id -> new AtomicInteger()).incrementAndGet();
            return call == 1 ? Outcome.retryAfter(Duration.ofSeconds(3)) : Outcome.ack();
        }
    }
}
