package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.impl.LongStringHelper;

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.Delivery;

/** A dead letter as peek shows it: plain headers, its failure, its reason, its source queue, the start of its body. */
class DeadLetterReadingTest {

    /** The runtime's user: its own letters carry it as their user-id. */
    private static final io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance APP = io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance
            .of("app");

    private static final Map<String, Object> QUORUM_DEATH = Map.of("queue", "payments", "reason", "delivery_limit",
            "count", 1L, "exchange", "", "routing-keys", List.of("payments"));

    @Test
    void theRuntimesDeadLetterIsReadFromItsHeaders() {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId("m-1").userId("app")
                .headers(Map.of(Delivery.ORIGINAL_QUEUE_HEADER, LongStringHelper.asLongString("refunds"),
                        "x-retry-count", 3,
                        Delivery.EXCEPTION_TYPE_HEADER, LongStringHelper.asLongString("java.lang.IllegalStateException"),
                        Delivery.EXCEPTION_MESSAGE_HEADER, LongStringHelper.asLongString("card declined")))
                .build();
        DeadLetter dead = DeadLetterReading.read(properties, "{\"id\":7}".getBytes(StandardCharsets.UTF_8),
                "x-retry-count", APP);
        assertEquals(new DeadLetter("m-1", "refunds", Map.of(Delivery.ORIGINAL_QUEUE_HEADER, "refunds",
                "x-retry-count", 3, Delivery.EXCEPTION_TYPE_HEADER, "java.lang.IllegalStateException",
                Delivery.EXCEPTION_MESSAGE_HEADER, "card declined"), "java.lang.IllegalStateException",
                "card declined", null, 3, "{\"id\":7}", 8), dead);
        assertInstanceOf(String.class, dead.header(Delivery.ORIGINAL_QUEUE_HEADER), "plain values");
    }

    @Test
    void aServerDeadLetterIsReadFromItsLatestDeath() {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().headers(Map.of("x-death",
                List.of(QUORUM_DEATH, Map.of("queue", "older", "reason", "expired")), "x-first-death-queue", "older"))
                .build();
        DeadLetter dead = DeadLetterReading.read(properties, new byte[0], "x-retry-count", APP);
        assertEquals("payments", dead.sourceQueue());
        assertEquals("delivery_limit", dead.reason());
        assertEquals(0, dead.attempts(), "no retry-count header");
        assertNull(dead.messageId());
        assertNull(dead.exceptionType());
        assertNull(dead.exceptionMessage());
        assertEquals("", dead.bodyPreview());
    }

    /**
     * A quorum queue's dead letter carries no count (RabbitMQ 3.10.8 and 4.0.5 write only x-death): the cap of the
     * subscription that consumed it is how many deliveries it had. Peek and the Dev UI said 0 before (issue 35).
     */
    @Test
    void aQuorumDeadLetterAtItsLimitCountsTheCap() {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().headers(Map.of("x-death",
                List.of(QUORUM_DEATH))).build();
        DeadLetter dead = DeadLetterReading.read(properties, new byte[0], "x-retry-count", APP,
                queue -> queue.equals("payments") ? 3 : 0);
        assertEquals(3, dead.attempts());
    }

    @Test
    void theSourceQueueIsOursThenTheLatestDeathsThenTheFirstDeaths() {
        assertEquals("refunds", DeadLetterReading.sourceQueue(Map.of(Delivery.ORIGINAL_QUEUE_HEADER, "refunds",
                "x-death", List.of(QUORUM_DEATH), "x-first-death-queue", "older"), true),
                "ours: a retry that waited in a waiting queue has an x-death naming that");
        assertEquals("payments", DeadLetterReading.sourceQueue(Map.of(Delivery.ORIGINAL_QUEUE_HEADER, "refunds",
                "x-death", List.of(QUORUM_DEATH), "x-first-death-queue", "older"), false),
                "a publisher's x-original-queue is not followed");
        assertEquals("payments", DeadLetterReading.sourceQueue(Map.of("x-death", List.of(QUORUM_DEATH),
                "x-first-death-queue", "older"), true));
        assertEquals("older", DeadLetterReading.sourceQueue(Map.of("x-first-death-queue", "older"), true));
        assertEquals("older", DeadLetterReading.sourceQueue(Map.of("x-death", List.of(), "x-first-death-queue",
                "older"), true));
        assertNull(DeadLetterReading.sourceQueue(Map.of(), true));
        assertNull(DeadLetterReading.sourceQueue(Map.of(Delivery.ORIGINAL_QUEUE_HEADER, 42, "x-death", "junk"), true));
    }

    @Test
    void theReasonIsTheHeaderThenTheLatestDeath() {
        assertEquals("poison", DeadLetterReading.reason(Map.of("x-dead-letter-reason", "poison", "x-death",
                List.of(QUORUM_DEATH))));
        assertEquals("delivery_limit", DeadLetterReading.reason(Map.of("x-death", List.of(QUORUM_DEATH))));
        assertNull(DeadLetterReading.reason(Map.of()));
    }

    @Test
    void theRetryCountIsANumberOrDigits() {
        assertEquals(4, DeadLetterReading.count(4L));
        assertEquals(4, DeadLetterReading.count(" 4 "));
        assertEquals(0, DeadLetterReading.count("four"));
        assertEquals(0, DeadLetterReading.count(-2));
        assertEquals(Integer.MAX_VALUE, DeadLetterReading.count(Long.MAX_VALUE));
        assertEquals(0, DeadLetterReading.count(null));
    }

    @Test
    void thePreviewIsTheFirst256BytesWithTheWholeSize() {
        byte[] body = "a".repeat(1_000).getBytes(StandardCharsets.UTF_8);
        DeadLetter dead = DeadLetterReading.read(new AMQP.BasicProperties(), body, "x-retry-count", APP);
        assertEquals("a".repeat(256), dead.bodyPreview());
        assertEquals(1_000, dead.bodySize());
        assertEquals("short", DeadLetterReading.preview("short".getBytes(StandardCharsets.UTF_8)));
        assertEquals("a".repeat(256), DeadLetterReading.preview("a".repeat(256).getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void thePreviewDoesNotSplitACharacter() {
        // 255 bytes, then a 3-byte euro sign across the limit: the preview stops before it.
        byte[] body = ("a".repeat(255) + "\u20ac" + "tail").getBytes(StandardCharsets.UTF_8);
        assertEquals("a".repeat(255), DeadLetterReading.preview(body));
        // 254 bytes, then a 2-byte character that ends at the limit: kept.
        byte[] fits = ("a".repeat(254) + "\u00e9" + "tail").getBytes(StandardCharsets.UTF_8);
        assertEquals("a".repeat(254) + "\u00e9", DeadLetterReading.preview(fits));
        // 253 bytes, then a 4-byte character across the limit.
        byte[] emoji = ("a".repeat(253) + "\ud83d\ude00" + "tail").getBytes(StandardCharsets.UTF_8);
        assertEquals("a".repeat(253), DeadLetterReading.preview(emoji));
    }
}
