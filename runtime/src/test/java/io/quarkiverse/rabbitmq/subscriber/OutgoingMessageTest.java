package io.quarkiverse.rabbitmq.subscriber;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;

/**
 * An OutgoingMessage is immutable, refuses at once what RabbitMQ could not take, and is what the publisher's
 * payload-and-headers forms send.
 */
class OutgoingMessageTest {

    @Test
    void aQueueIsTheDefaultExchangeWithTheQueueAsRoutingKey() {
        OutgoingMessage message = OutgoingMessage.toQueue("refunds");
        assertEquals("", message.exchange());
        assertEquals("refunds", message.routingKey());
        OutgoingMessage routed = OutgoingMessage.to("payments", "refund.eu");
        assertEquals("payments", routed.exchange());
        assertEquals("refund.eu", routed.routingKey());
    }

    @Test
    void whatIsNotSetHasItsDefault() {
        OutgoingMessage message = OutgoingMessage.toQueue("q");
        assertArrayEquals(new byte[0], (byte[]) message.payload(), "an empty body");
        assertEquals(Map.of(), message.headers());
        assertNull(message.messageId());
        assertNull(message.correlationId());
        assertNull(message.replyTo());
        assertNull(message.contentType());
        assertEquals(Optional.empty(), message.expiration());
        assertEquals(OptionalInt.empty(), message.priority());
        assertTrue(message.persistent());
    }

    @Test
    void eachMethodReturnsANewMessageAndLeavesTheTemplateAsItWas() {
        OutgoingMessage template = OutgoingMessage.toQueue("q").header("tenant", "acme");
        OutgoingMessage first = template.payload("one").header("n", 1).messageId("m-1");
        OutgoingMessage second = template.payload("two").priority(3).persistent(false);
        assertArrayEquals(new byte[0], (byte[]) template.payload());
        assertEquals(Map.of("tenant", "acme"), template.headers());
        assertNull(template.messageId());
        assertEquals("one", first.payload());
        assertEquals(Map.of("tenant", "acme", "n", 1), first.headers());
        assertEquals("m-1", first.messageId());
        assertEquals("two", second.payload());
        assertEquals(OptionalInt.of(3), second.priority());
        assertEquals(false, second.persistent());
        assertEquals(OptionalInt.empty(), first.priority());
        assertThrows(UnsupportedOperationException.class, () -> first.headers().put("x", "y"));
    }

    @Test
    void headersKeepTheirOrderAndALaterOneReplacesAnEarlierOfItsName() {
        OutgoingMessage message = OutgoingMessage.toQueue("q").header("b", 1).headers(Map.of("a", 2)).header("b", 3);
        assertEquals(List.of("b", "a"), List.copyOf(message.headers().keySet()));
        assertEquals(3, message.headers().get("b"));
    }

    @Test
    void priorityIsAnOctet() {
        assertEquals(OptionalInt.of(0), OutgoingMessage.toQueue("q").priority(0).priority());
        assertEquals(OptionalInt.of(255), OutgoingMessage.toQueue("q").priority(255).priority());
        for (int refused : new int[] { -1, 256 }) {
            IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                    () -> OutgoingMessage.toQueue("refunds").priority(refused));
            assertEquals("The priority of a message to queue 'refunds' must be between 0 and 255, and was " + refused,
                    failure.getMessage());
        }
    }

    @Test
    void expirationIsWholeMillisecondsRoundedUpAndWithinWhatRabbitMqAccepts() {
        assertEquals(Optional.of(Duration.ofMillis(1500)),
                OutgoingMessage.toQueue("q").expiration(Duration.ofMillis(1500)).expiration());
        assertEquals(Optional.of(Duration.ofMillis(2)),
                OutgoingMessage.toQueue("q").expiration(Duration.ofNanos(1_000_001)).expiration());
        assertEquals(Optional.of(Duration.ZERO), OutgoingMessage.toQueue("q").expiration(Duration.ZERO).expiration());
        assertEquals(Optional.empty(),
                OutgoingMessage.toQueue("q").expiration(Duration.ofSeconds(1)).expiration(null).expiration());
        assertEquals(Optional.of(Duration.ofMillis(4_294_967_295L)),
                OutgoingMessage.toQueue("q").expiration(Duration.ofMillis(4_294_967_295L)).expiration());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> OutgoingMessage.to("x", "k").expiration(Duration.ofMillis(-1)));
        assertEquals("The expiration of a message to exchange 'x' with routing key 'k' cannot be negative, and was "
                + "PT-0.001S", negative.getMessage());
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> OutgoingMessage.toQueue("q").expiration(Duration.ofDays(50)));
        assertTrue(tooLong.getMessage().contains("RabbitMQ accepts at most 4294967295 ms"), tooLong.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> OutgoingMessage.toQueue("q").expiration(Duration.ofSeconds(Long.MAX_VALUE)));
    }

    @Test
    void aQueueNameIsRequired() {
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> OutgoingMessage.toQueue(null));
        assertTrue(none.getMessage().contains("reply-to of a delivery that has none"), none.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.toQueue(""));
        assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.to(null, "k"));
        assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.to("x", null));
    }

    @Test
    void aNullPayloadIsRefused() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> OutgoingMessage.toQueue("refunds").payload(null));
        assertTrue(failure.getMessage().contains("queue 'refunds'"), failure.getMessage());
    }

    @Test
    void whatAmqpSendsAsAShortStringTakesAtMost255Bytes() {
        String longest = "é".repeat(127) + "a";
        assertEquals(longest, OutgoingMessage.toQueue(longest).routingKey());
        String tooLong = "é".repeat(128);
        IllegalArgumentException key = assertThrows(IllegalArgumentException.class,
                () -> OutgoingMessage.toQueue(tooLong));
        assertTrue(key.getMessage().contains("routing key takes at most 255 bytes"), key.getMessage());
        assertTrue(key.getMessage().endsWith("takes 256"), key.getMessage());
        assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.toQueue("q").messageId(tooLong));
        assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.toQueue("q").correlationId(tooLong));
        assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.toQueue("q").replyTo(tooLong));
        assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.toQueue("q").contentType(tooLong));
        assertThrows(IllegalArgumentException.class, () -> OutgoingMessage.toQueue("q").header(tooLong, 1));
    }

    /**
     * {@code send} goes to a queue, {@code publish} to an exchange: {@code send("payments", "refund.created", map)} used
     * to read as the exchange form and sent to a queue named payments. The headers go as given; a {@code message-id}
     * header is the message id property, as it was, now with a WARN.
     */
    @Test
    void sendGoesToAQueuePublishToAnExchangeAndTheHeadersAsGiven() {
        Capturing publisher = new Capturing();
        publisher.send("refunds", "body", Map.of("tenant", "acme")).await().indefinitely();
        publisher.publishConfirmed("payments", "refund.eu", "other", Map.of("tenant", "globex")).await().indefinitely();
        publisher.publish("payments", "refund.us", "third").await().indefinitely();
        OutgoingMessage sent = publisher.sent.get(0);
        assertEquals("", sent.exchange());
        assertEquals("refunds", sent.routingKey());
        assertEquals("body", sent.payload());
        assertNull(sent.messageId());
        assertEquals(Map.of("tenant", "acme"), sent.headers());
        OutgoingMessage confirmed = publisher.confirmed.get(0);
        assertEquals("payments", confirmed.exchange());
        assertEquals("refund.eu", confirmed.routingKey());
        assertEquals(Map.of("tenant", "globex"), confirmed.headers());
        assertEquals("refund.us", publisher.sent.get(1).routingKey());

        // As before the names changed, with a WARN now: a message-id header is the property.
        publisher.send("refunds", "body", Map.of("message-id", "m-1", "tenant", "acme")).await().indefinitely();
        assertEquals("m-1", publisher.sent.get(2).messageId());
        assertEquals(Map.of("tenant", "acme"), publisher.sent.get(2).headers());
    }

    @Test
    void aPayloadAndHeadersFormFailsItsUniWithWhatTheMessageRefuses() {
        Capturing publisher = new Capturing();
        Uni<Void> send = publisher.send("refunds", null);
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> send.await().indefinitely());
        assertTrue(failure.getMessage().contains("payload"), failure.getMessage());
        assertTrue(publisher.sent.isEmpty());
    }

    /** A publisher that keeps what it is given. */
    private static final class Capturing implements RabbitPublisher {
        final List<OutgoingMessage> sent = new CopyOnWriteArrayList<>();
        final List<OutgoingMessage> confirmed = new CopyOnWriteArrayList<>();

        @Override
        public Uni<Void> send(OutgoingMessage message) {
            sent.add(message);
            return Uni.createFrom().voidItem();
        }

        @Override
        public OutgoingMessage toPartition(String subscription, String key) {
            return OutgoingMessage.to(subscription, key);
        }

        @Override
        public Uni<Void> sendConfirmed(OutgoingMessage message) {
            confirmed.add(message);
            return Uni.createFrom().voidItem();
        }

        @Override
        public <R> Uni<R> request(OutgoingMessage request, Class<R> replyType, Duration timeout) {
            throw new UnsupportedOperationException();
        }
    }
}
