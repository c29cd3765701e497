package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;

/** What identifies a message in the inbox. */
class InboxKeyTest {

    static InboundDelivery delivery(String messageId, Map<String, Object> headers) {
        return new InboundDelivery("orders", new Envelope(1, false, "", "orders"),
                new AMQP.BasicProperties.Builder().messageId(messageId).headers(headers).build(), new byte[0],
                "x-retry-count");
    }

    @Test
    void theMessageIdByDefault() {
        InboxKey key = InboxKey.parse("message-id");
        assertEquals("m-1", key.of(delivery("m-1", Map.of())));
        assertNull(key.of(delivery(null, Map.of())), "no key is made up");
        assertNull(key.of(delivery("", Map.of())));
    }

    @Test
    void aHeader() {
        InboxKey key = InboxKey.parse("header:payment-id");
        assertEquals("p-7", key.of(delivery("m-1", Map.of("payment-id", "p-7"))));
        assertEquals("42", key.of(delivery("m-1", Map.of("payment-id", 42))));
        assertNull(key.of(delivery("m-1", Map.of())));
    }

    @Test
    void aLongKeyIsHashed() {
        String key = InboxKey.parse("message-id").of(delivery("x".repeat(300), Map.of()));
        assertTrue(key.startsWith("sha256:") && key.length() == 7 + 64, key);
    }

    @Test
    void anotherSettingIsRefusedByName() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> InboxKey.parse("correlation-id"));
        assertEquals("quarkus.rabbitmq-subscriber.inbox.key=correlation-id is neither message-id nor header:<name>",
                e.getMessage());
    }
}
