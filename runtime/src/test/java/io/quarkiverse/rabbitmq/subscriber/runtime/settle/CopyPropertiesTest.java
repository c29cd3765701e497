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

    /** The runtime logs in as "app". */
    static final Provenance APP = Provenance.of("app");

    /** A message the runtime wrote (a copy of its own, under its user). */
    static Unsettled arrived(String exchange, String routingKey, Map<String, Object> headers) {
        return delivery(exchange, routingKey, "app", headers);
    }

    static Unsettled delivery(String exchange, String routingKey, String userId, Map<String, Object> headers) {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId("m-1").userId(userId)
                .headers(headers).build();
        String queue = routingKey.equals("refunds.wait") ? "refunds.wait" : "refunds";
        return new io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery(queue,
                new com.rabbitmq.client.Envelope(1, false, exchange, routingKey), properties, new byte[0],
                "x-retry-count", APP);
    }

    @Test
    void aPublishersCopyGoesUnderTheRuntimesUserWithoutWhatOnlyTheRuntimeWrites() {
        // A first delivery, through the exchange 'payments', from user 'orders' who forged the runtime's headers.
        Unsettled first = delivery("payments", "refund.card", "orders", Map.of("kind", "refund",
                Delivery.ORIGINAL_EXCHANGE_HEADER, "admin", Delivery.ORIGINAL_ROUTING_KEY_HEADER, "pay.all",
                Delivery.ORIGINAL_QUEUE_HEADER, "payroll", Delivery.ORIGINAL_USER_ID_HEADER, "ceo", "CC",
                java.util.List.of("payroll"), "BCC", java.util.List.of("audit")));
        assertEquals("payments", first.exchange(), "a publisher's x-original-exchange is not honoured");
        assertEquals("refund.card", first.routingKey());
        assertEquals("orders", first.wireProperties().getUserId());
        AMQP.BasicProperties copy = CopyProperties.of(first, APP, "x-retry-count", 2, null);
        assertEquals(Map.of("kind", "refund", "x-retry-count", 2, Delivery.ORIGINAL_EXCHANGE_HEADER, "payments",
                Delivery.ORIGINAL_ROUTING_KEY_HEADER, "refund.card", Delivery.ORIGINAL_QUEUE_HEADER, "refunds",
                Delivery.ORIGINAL_USER_ID_HEADER, "orders"), copy.getHeaders());
        assertEquals("app", copy.getUserId(), "RabbitMQ refuses the publisher's user-id from the runtime's user");

        // The copy comes back: the runtime wrote it, so its headers count, and the handler sees the publisher.
        Unsettled second = delivery("", "refunds", copy.getUserId(), copy.getHeaders());
        assertEquals("payments", second.exchange());
        assertEquals("refund.card", second.routingKey());
        assertEquals("orders", second.wireProperties().getUserId());
        AMQP.BasicProperties third = CopyProperties.of(second, APP, "x-retry-count", 3, null);
        assertEquals("orders", third.getHeaders().get(Delivery.ORIGINAL_USER_ID_HEADER));
        assertEquals("app", third.getUserId());
    }

    @Test
    void aMessageAsReceivedGoesUnderTheRuntimesUserToo() {
        Unsettled first = delivery("", "refunds", "orders", Map.of("kind", "refund", "CC", java.util.List.of("x"),
                Delivery.ORIGINAL_QUEUE_HEADER, "payroll"));
        AMQP.BasicProperties asReceived = CopyProperties.asReceived(first, APP);
        assertEquals(Map.of("kind", "refund", Delivery.ORIGINAL_USER_ID_HEADER, "orders"), asReceived.getHeaders());
        assertEquals("app", asReceived.getUserId());
        assertEquals("m-1", asReceived.getMessageId());
    }

    @Test
    void aLetterGoesWithoutTheExpirationACopyKeeps() {
        // A publisher's TTL is for the work: in a dead-letter or parking queue it would lose the letter, so it goes, as
        // RabbitMQ's own dead-lettering removes it.
        AMQP.BasicProperties expiring = new AMQP.BasicProperties.Builder().messageId("m-1").userId("orders")
                .expiration("60000").build();
        Unsettled first = new io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery("refunds",
                new com.rabbitmq.client.Envelope(1, false, "", "refunds"), expiring, new byte[0], "x-retry-count",
                APP);
        assertEquals("60000", CopyProperties.of(first, APP, "x-retry-count", 2, null).getExpiration());
        assertEquals("60000", CopyProperties.of(first, APP, "x-retry-count", 2, null, false).getExpiration());
        AMQP.BasicProperties letter = CopyProperties.of(first, APP, "x-retry-count", 2, null, true);
        assertEquals(null, letter.getExpiration());
        assertEquals("m-1", letter.getMessageId());
        assertEquals(2, letter.getHeaders().get("x-retry-count"));
        assertEquals(null, CopyProperties.asReceived(first, APP).getExpiration());
        assertEquals(null, CopyProperties.asReceivedUnmarked(first, APP).getExpiration());
    }

    @Test
    void withoutAKnownUserNothingIsHonouredAndCopiesGoWithoutUserId() {
        Unsettled copyOfOurs = new io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery("refunds",
                new com.rabbitmq.client.Envelope(1, false, "", "refunds"), new AMQP.BasicProperties.Builder()
                        .headers(Map.of(Delivery.ORIGINAL_EXCHANGE_HEADER, "payments")).build(),
                new byte[0], "x-retry-count", Provenance.NONE);
        assertEquals("", copyOfOurs.exchange());
        assertEquals(null, CopyProperties.of(copyOfOurs, Provenance.NONE, "x-retry-count", 2, null).getUserId());
    }

    @Test
    void theFirstCopyOfAMessageFromAnExchangeWritesItsRoute() {
        AMQP.BasicProperties copy = CopyProperties.of(arrived("payments", "refund.card", Map.of("x-death", "old",
                "kind", "refund")), APP, "x-retry-count", 2, null);
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
        AMQP.BasicProperties copy = CopyProperties.of(second, APP, "x-retry-count", 3, null);
        assertEquals("payments", copy.getHeaders().get(Delivery.ORIGINAL_EXCHANGE_HEADER));
        assertEquals("refund.card", copy.getHeaders().get(Delivery.ORIGINAL_ROUTING_KEY_HEADER));
    }

    @Test
    void aCopyOfACopyKeepsTheFirstQueueEvenWhenItArrivesFromAnother() {
        // A retry that waited in a waiting queue is dead-lettered from there back to its queue.
        Unsettled waited = arrived("", "refunds.wait", Map.of(Delivery.ORIGINAL_QUEUE_HEADER, "refunds",
                "x-retry-count", 2));
        AMQP.BasicProperties copy = CopyProperties.of(waited, APP, "x-retry-count", 3, null);
        assertEquals("refunds", copy.getHeaders().get(Delivery.ORIGINAL_QUEUE_HEADER));
        assertEquals("refunds", OriginalRoute.queue(copy.getHeaders()));
    }

    @Test
    void aMessageFromTheDefaultExchangeNeedsNoRoute() {
        AMQP.BasicProperties copy = CopyProperties.of(arrived("", "refunds", null), APP, "x-retry-count", 2, null);
        assertFalse(copy.getHeaders().containsKey(Delivery.ORIGINAL_EXCHANGE_HEADER));
        assertEquals(Map.of("x-retry-count", 2, Delivery.ORIGINAL_QUEUE_HEADER, "refunds"), copy.getHeaders());
    }

    @Test
    void aRouteHeaderThatIsNotTextIsIgnored() {
        assertEquals("payments", OriginalRoute.exchange(Map.of(Delivery.ORIGINAL_EXCHANGE_HEADER, 42), "payments"));
    }
}
