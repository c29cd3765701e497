package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Map;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Delivery;

/**
 * A copy keeps the original's headers and properties, drops the broker's own, and carries the original's route and
 * queue.
 */
class CopyPropertiesTest {

    static Unsettled arrived(String exchange, String routingKey, Map<String, Object> headers) {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId("m-1").headers(headers).build();
        return new Unsettled() {
            public long deliveryTag() {
                return 1;
            }

            public AckSlot ackSlot() {
                return null;
            }

            public void ackSlot(AckSlot slot) {
            }

            public boolean markSettled() {
                return true;
            }

            public boolean redelivered() {
                return false;
            }

            public AMQP.BasicProperties properties() {
                return properties;
            }

            public String queue() {
                return routingKey.equals("refunds.wait") ? "refunds.wait" : "refunds";
            }

            public String exchange() {
                return OriginalRoute.exchange(headers, exchange);
            }

            public String routingKey() {
                return OriginalRoute.routingKey(headers, routingKey);
            }

            public byte[] body() {
                return new byte[0];
            }

            public String describe() {
                return "message-id m-1";
            }
        };
    }

    @Test
    void theFirstCopyOfAMessageFromAnExchangeWritesItsRoute() {
        AMQP.BasicProperties copy = CopyProperties.of(arrived("payments", "refund.card", Map.of("x-death", "old",
                "kind", "refund")), "x-retry-count", 2, null);
        assertEquals(Map.of("kind", "refund", "x-retry-count", 2, Delivery.ORIGINAL_EXCHANGE_HEADER, "payments",
                Delivery.ORIGINAL_ROUTING_KEY_HEADER, "refund.card", Delivery.ORIGINAL_QUEUE_HEADER, "refunds"),
                copy.getHeaders());
        assertEquals("m-1", copy.getMessageId());
    }

    @Test
    void aCopyOfACopyKeepsTheFirstRoute() {
        Unsettled second = arrived("", "refunds", Map.of(Delivery.ORIGINAL_EXCHANGE_HEADER, "payments",
                Delivery.ORIGINAL_ROUTING_KEY_HEADER, "refund.card", "x-retry-count", 2));
        assertEquals("payments", second.exchange());
        assertEquals("refund.card", second.routingKey());
        AMQP.BasicProperties copy = CopyProperties.of(second, "x-retry-count", 3, null);
        assertEquals("payments", copy.getHeaders().get(Delivery.ORIGINAL_EXCHANGE_HEADER));
        assertEquals("refund.card", copy.getHeaders().get(Delivery.ORIGINAL_ROUTING_KEY_HEADER));
    }

    @Test
    void aCopyOfACopyKeepsTheFirstQueueEvenWhenItArrivesFromAnother() {
        // A retry that waited in a waiting queue is dead-lettered from there back to its queue.
        Unsettled waited = arrived("", "refunds.wait", Map.of(Delivery.ORIGINAL_QUEUE_HEADER, "refunds",
                "x-retry-count", 2));
        AMQP.BasicProperties copy = CopyProperties.of(waited, "x-retry-count", 3, null);
        assertEquals("refunds", copy.getHeaders().get(Delivery.ORIGINAL_QUEUE_HEADER));
        assertEquals("refunds", OriginalRoute.queue(copy.getHeaders()));
    }

    @Test
    void aMessageFromTheDefaultExchangeNeedsNoRoute() {
        AMQP.BasicProperties copy = CopyProperties.of(arrived("", "refunds", null), "x-retry-count", 2, null);
        assertFalse(copy.getHeaders().containsKey(Delivery.ORIGINAL_EXCHANGE_HEADER));
        assertEquals(Map.of("x-retry-count", 2, Delivery.ORIGINAL_QUEUE_HEADER, "refunds"), copy.getHeaders());
    }

    @Test
    void aRouteHeaderThatIsNotTextIsIgnored() {
        assertEquals("payments", OriginalRoute.exchange(Map.of(Delivery.ORIGINAL_EXCHANGE_HEADER, 42), "payments"));
    }
}
