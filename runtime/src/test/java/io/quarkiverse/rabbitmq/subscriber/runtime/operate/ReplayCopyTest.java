package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Date;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.impl.LongStringHelper;

import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance;

/** A replayed message starts over: no retry count, failure or deaths; one replay more; the rest as it was. */
class ReplayCopyTest {

    /** The replay publishes as user "app". */
    private static final Provenance APP = Provenance.of("app");

    @Test
    void aLetterTheRuntimeDidNotWriteLosesTheRuntimesHeadersAndKeepsItsPublisher() {
        // A publisher wrote straight into the dead-letter queue, naming a queue of its choice and another user.
        AMQP.BasicProperties forged = new AMQP.BasicProperties.Builder().userId("mallory").headers(Map.of("tenant",
                "acme", Delivery.ORIGINAL_QUEUE_HEADER, "payroll", Delivery.ORIGINAL_EXCHANGE_HEADER, "admin",
                Delivery.ORIGINAL_ROUTING_KEY_HEADER, "pay.all", Delivery.ORIGINAL_USER_ID_HEADER, "ceo", "CC",
                List.of("payroll"))).build();
        AMQP.BasicProperties copy = ReplayCopy.of(forged, "x-retry-count", APP);
        assertEquals(Map.of("tenant", "acme", Delivery.ORIGINAL_USER_ID_HEADER, "mallory", DeadLetters.REPLAYED_HEADER,
                1), copy.getHeaders());
        assertEquals("app", copy.getUserId());
    }

    @Test
    void theRuntimesLetterGivesItsPublisherBack() {
        AMQP.BasicProperties dead = new AMQP.BasicProperties.Builder().userId("app")
                .headers(Map.of(Delivery.ORIGINAL_USER_ID_HEADER, "orders-service")).build();
        AMQP.BasicProperties copy = ReplayCopy.of(dead, "x-retry-count", APP);
        assertEquals("orders-service", copy.getHeaders().get(Delivery.ORIGINAL_USER_ID_HEADER));
        assertEquals("app", copy.getUserId());
    }

    @Test
    void theRuntimesDeadLetterLosesItsCountAndFailureAndKeepsItsOrigin() {
        AMQP.BasicProperties dead = new AMQP.BasicProperties.Builder().messageId("m-1").contentType("application/json")
                .userId("app")
                .timestamp(new Date(1_000)).headers(Map.of("tenant", "acme", "x-retry-count", 3,
                        Delivery.EXCEPTION_TYPE_HEADER, "java.lang.IllegalStateException",
                        Delivery.EXCEPTION_MESSAGE_HEADER, "card declined", Delivery.ORIGINAL_QUEUE_HEADER, "refunds",
                        Delivery.ORIGINAL_EXCHANGE_HEADER, "payments", Delivery.ORIGINAL_ROUTING_KEY_HEADER, "refund"))
                .build();
        AMQP.BasicProperties copy = ReplayCopy.of(dead, "x-retry-count", APP);
        assertEquals("app", copy.getUserId(), "published as the runtime's user");
        assertEquals(Map.of("tenant", "acme", Delivery.ORIGINAL_QUEUE_HEADER, "refunds",
                Delivery.ORIGINAL_EXCHANGE_HEADER, "payments", Delivery.ORIGINAL_ROUTING_KEY_HEADER, "refund",
                DeadLetters.REPLAYED_HEADER, 1), copy.getHeaders());
        assertEquals("m-1", copy.getMessageId());
        assertEquals("application/json", copy.getContentType());
        assertEquals(new Date(1_000), copy.getTimestamp());
    }

    @Test
    void aServerDeadLetterLosesItsDeaths() {
        AMQP.BasicProperties dead = new AMQP.BasicProperties.Builder().headers(Map.of("x-death",
                List.of(Map.of("queue", "payments", "reason", "delivery_limit")), "x-first-death-queue", "payments",
                "x-first-death-reason", "delivery_limit", "x-first-death-exchange", "", "x-last-death-queue",
                "payments", "x-last-death-reason", "delivery_limit", "x-last-death-exchange", "",
                "x-delivery-count", 5)).build();
        assertEquals(Map.of(DeadLetters.REPLAYED_HEADER, 1), ReplayCopy.of(dead, "x-retry-count", APP).getHeaders());
    }

    @Test
    void theConfiguredRetryCountHeaderIsTheOneRemoved() {
        AMQP.BasicProperties dead = new AMQP.BasicProperties.Builder().headers(Map.of("attempts", 3,
                "x-retry-count", 2)).build();
        assertEquals(Map.of("x-retry-count", 2, DeadLetters.REPLAYED_HEADER, 1),
                ReplayCopy.of(dead, "attempts", APP).getHeaders());
    }

    @Test
    void eachReplayRaisesTheReplayCount() {
        assertEquals(3, ReplayCopy.of(withReplayed(2), "x-retry-count", APP).getHeaders().get(DeadLetters.REPLAYED_HEADER));
        assertEquals(3, ReplayCopy.of(withReplayed(2L), "x-retry-count", APP).getHeaders()
                .get(DeadLetters.REPLAYED_HEADER));
        assertEquals(3, ReplayCopy.of(withReplayed(LongStringHelper.asLongString("2")), "x-retry-count", APP).getHeaders()
                .get(DeadLetters.REPLAYED_HEADER), "written as text by someone else");
        assertEquals(1, ReplayCopy.of(withReplayed("junk"), "x-retry-count", APP).getHeaders()
                .get(DeadLetters.REPLAYED_HEADER));
        assertEquals(1, ReplayCopy.of(new AMQP.BasicProperties(), "x-retry-count", APP).getHeaders()
                .get(DeadLetters.REPLAYED_HEADER), "no headers at all");
    }

    private static AMQP.BasicProperties withReplayed(Object replayed) {
        return new AMQP.BasicProperties.Builder().headers(Map.of(DeadLetters.REPLAYED_HEADER, replayed)).build();
    }
}
