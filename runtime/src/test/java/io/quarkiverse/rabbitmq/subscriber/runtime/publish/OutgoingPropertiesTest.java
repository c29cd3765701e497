package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;

/**
 * The properties a message is sent with: what it sets, and the publisher's defaults for what it does not (the content
 * type its codec wrote: {@code PayloadEncoderTest}).
 */
class OutgoingPropertiesTest {

    record Refund(long id) {
    }

    @Test
    void aMessageThatSetsNothingGetsTheDefaults() {
        OutgoingMessage message = OutgoingMessage.toQueue("q").payload(new Refund(1));
        AMQP.BasicProperties first = OutgoingProperties.of(message, "application/json", Map.of());
        AMQP.BasicProperties second = OutgoingProperties.of(message, "application/json", Map.of());
        UUID.fromString(first.getMessageId());
        assertNotEquals(first.getMessageId(), second.getMessageId(), "a random id each");
        assertEquals("application/json", first.getContentType());
        assertEquals(2, first.getDeliveryMode(), "persistent");
        assertNull(first.getExpiration());
        assertNull(first.getPriority());
        assertNull(first.getCorrelationId());
        assertNull(first.getReplyTo());
        assertNull(first.getHeaders(), "no empty header table");
    }

    @Test
    void whatTheMessageSetsIsSent() {
        OutgoingMessage message = OutgoingMessage.toQueue("q").payload("text").messageId("m-1").correlationId("c-1")
                .replyTo("answers").expiration(Duration.ofMillis(1500)).priority(7).persistent(false)
                .contentType("application/vnd.acme+text").contentEncoding("gzip");
        Map<String, Object> headers = new LinkedHashMap<>(Map.of("tenant", "acme"));
        AMQP.BasicProperties properties = OutgoingProperties.of(message, "application/vnd.acme+text", headers);
        assertEquals("m-1", properties.getMessageId());
        assertEquals("c-1", properties.getCorrelationId());
        assertEquals("answers", properties.getReplyTo());
        assertEquals("1500", properties.getExpiration(), "AMQP's expiration: milliseconds, as text");
        assertEquals(7, properties.getPriority());
        assertEquals(1, properties.getDeliveryMode(), "transient");
        assertEquals("application/vnd.acme+text", properties.getContentType());
        assertEquals("gzip", properties.getContentEncoding());
        assertEquals(Map.of("tenant", "acme"), properties.getHeaders());
    }

    @Test
    void theHeadersSentAreTheOnesGivenWhichObserversMayHaveAddedTo() {
        OutgoingMessage message = OutgoingMessage.toQueue("q").header("tenant", "acme");
        Map<String, Object> observed = new LinkedHashMap<>(message.headers());
        observed.put("traceparent", "00-abc-def-01");
        assertEquals(observed, OutgoingProperties.of(message, null, observed).getHeaders());
    }

    @Test
    void aHeaderAmqpCannotCarryIsRefusedNamingTheHeaders() {
        OutgoingMessage message = OutgoingMessage.toQueue("q").header("when", java.time.Instant.EPOCH);
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> OutgoingProperties.of(message, null, message.headers()));
        assertTrue(failure.getMessage().contains("cannot be sent over AMQP"), failure.getMessage());
        assertTrue(failure.getMessage().contains("[when]"), failure.getMessage());
    }
}
