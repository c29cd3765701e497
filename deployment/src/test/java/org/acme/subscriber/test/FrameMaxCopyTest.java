package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.GetResponse;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Messages whose own headers come close to the connection's {@code frame_max} (131,072 bytes on RabbitMQ): AMQP sends a
 * message's headers in one frame, and amqp-client refuses a publish whose headers do not fit, before sending anything.
 * A copy or dead letter that would not fit is trimmed of the extension's failure headers; where even the retry count
 * leaves no room, the message is requeued once, then dead-lettered exactly as it was received. Every settlement ends in
 * a frame, and nothing is lost: before, the copy was refused, the original was counted as settled without a frame, and
 * the multiple ack of the messages behind it took it away.
 */
@Tag("wire")
class FrameMaxCopyTest {

    static final String ROOM = "t.frame.room";
    static final String FULL = "t.frame.full";
    static final String DELAYED = "t.frame.delayed";
    static final String CONFIRMED = "t.frame.confirmed";
    static final String[] QUEUES = { ROOM, ROOM + ".dead", FULL, FULL + ".dead", DELAYED, DELAYED + ".dead",
            DELAYED + ".retry", CONFIRMED, CONFIRMED + ".dead" };
    /** Longer than the room left for it: the copies go without it. */
    static final String LONG_MESSAGE = "x".repeat(1_000);

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUES).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, CapturedLogs.class, PoisonMessages.class));

    @jakarta.inject.Inject
    Handlers handlers;

    @Test
    void copiesWithoutRoomForTheFailureHeadersGoWithoutThem() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> admin.publishRaw(ROOM, "fails".getBytes(), PoisonMessages.leavingRoom("room-1", 200)));
            await().atMost(Duration.ofSeconds(20)).until(() -> depth(ROOM + ".dead") == 1);
            assertEquals(List.of(1, 2, 3), List.copyOf(handlers.attempts.get("room-1")), "three deliveries, counted");
            GetResponse dead = RabbitAdmin.withResult(admin -> admin.drain(ROOM + ".dead")).get(0);
            Map<String, Object> headers = dead.getProps().getHeaders();
            assertEquals(3, ((Number) headers.get("x-retry-count")).intValue());
            assertEquals(IllegalStateException.class.getName(), headers.get(Delivery.EXCEPTION_TYPE_HEADER).toString());
            assertFalse(headers.containsKey(Delivery.EXCEPTION_MESSAGE_HEADER), "dropped: it did not fit");
            assertEquals(0, depth(ROOM));
            assertTrue(logs.errors().stream().anyMatch(line -> line.contains("without header(s) [x-exception-message]")),
                    logs.errors()::toString);
        }
    }

    @Test
    void aMessageWithNoRoomForTheCountIsRequeuedOnceThenDeadLetteredAsReceived() throws Exception {
        AMQP.BasicProperties full = PoisonMessages.leavingRoom("full-1", 5);
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> {
                admin.publishRaw(FULL, "fails".getBytes(), full);
                // On RabbitMQ 3.10.8 the multiple ack of these took the poison message away unhandled.
                for (int i = 0; i < 3; i++) {
                    admin.publish(FULL, "ok", "ok-" + i);
                }
            });
            await().atMost(Duration.ofSeconds(20)).until(() -> depth(FULL + ".dead") == 1 && depth(FULL) == 0);
            assertEquals(2, handlers.attempts.get("full-1").size(), "a first delivery and its redelivery");
            assertEquals(3, handlers.acked.get());
            GetResponse dead = RabbitAdmin.withResult(admin -> admin.drain(FULL + ".dead")).get(0);
            assertEquals("full-1", dead.getProps().getMessageId());
            assertEquals(full.getHeaders().get("filler"), dead.getProps().getHeaders().get("filler").toString());
            assertNull(dead.getProps().getHeaders().get("x-retry-count"), "as received");
            List<String> errors = logs.errors();
            assertTrue(errors.stream().anyMatch(line -> line.contains("Queue 't.frame.full'")
                    && line.contains("message-id full-1") && line.contains("frame_max")
                    && line.contains("Requeueing it")), errors::toString);
            assertTrue(errors.stream().anyMatch(line -> line.contains("Publishing it to dead-letter queue "
                    + "'t.frame.full.dead' as received")), errors::toString);
        }
    }

    @Test
    void aDelayedCopyWithNoRoomIsRequeuedOnceThenDeadLetteredAsReceived() throws Exception {
        RabbitAdmin.with(admin -> admin.publishRaw(DELAYED, "later".getBytes(), PoisonMessages.leavingRoom("delayed-1", 5)));
        await().atMost(Duration.ofSeconds(20)).until(() -> depth(DELAYED + ".dead") == 1 && depth(DELAYED) == 0);
        assertEquals(2, handlers.attempts.get("delayed-1").size());
        assertEquals(0, depth(DELAYED + ".retry"));
    }

    @Test
    void confirmedCopiesStayInStepAfterOneCouldNotBePublished() throws Exception {
        RabbitAdmin.with(admin -> {
            admin.publishRaw(CONFIRMED, "fails".getBytes(), PoisonMessages.leavingRoom("confirmed-0", 5));
            for (int i = 1; i <= 5; i++) {
                admin.publish(CONFIRMED, "fails", "confirmed-" + i);
            }
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> depth(CONFIRMED + ".dead") == 6 && depth(CONFIRMED) == 0);
        for (int i = 1; i <= 5; i++) {
            assertEquals(List.of(1, 2, 3), List.copyOf(handlers.attempts.get("confirmed-" + i)), "confirmed-" + i);
        }
        assertEquals(2, handlers.attempts.get("confirmed-0").size());
    }

    private static long depth(String queue) {
        return RabbitAdmin.withResult(admin -> admin.depth(queue));
    }

    public static class Handlers {
        /** The retry count each delivery of a message saw, by message id. */
        final Map<String, Queue<Integer>> attempts = new ConcurrentHashMap<>();
        final AtomicInteger acked = new AtomicInteger();

        private void seen(Delivery delivery) {
            attempts.computeIfAbsent(delivery.messageId(), id -> new ConcurrentLinkedQueue<>()).add(delivery.attempt());
        }

        @Subscriber(value = ROOM, maxAttempts = 3, deadLetter = ROOM + ".dead")
        void room(String body, Delivery delivery) {
            seen(delivery);
            throw new IllegalStateException(LONG_MESSAGE);
        }

        @Subscriber(value = FULL, maxAttempts = 3, deadLetter = FULL + ".dead")
        void full(String body, Delivery delivery) {
            if (!body.equals("ok")) {
                seen(delivery);
                throw new IllegalStateException(LONG_MESSAGE);
            }
            acked.incrementAndGet();
        }

        @Subscriber(value = DELAYED, maxAttempts = 3, deadLetter = DELAYED + ".dead", delay = Delay.DLX_TTL)
        Outcome delayed(String body, Delivery delivery) {
            seen(delivery);
            return Outcome.retryAfter(Duration.ofMillis(10));
        }

        @Subscriber(value = CONFIRMED, maxAttempts = 3, deadLetter = CONFIRMED + ".dead", retryPublish = RetryPublish.CONFIRMED)
        void confirmed(String body, Delivery delivery) {
            seen(delivery);
            throw new IllegalStateException("fails");
        }
    }
}
