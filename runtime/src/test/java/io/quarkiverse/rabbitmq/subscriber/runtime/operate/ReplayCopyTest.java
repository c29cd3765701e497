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

/** A replayed message starts over: no retry count, failure or deaths; one replay more; the rest as it was. */
class ReplayCopyTest {

    @Test
    void theRuntimesDeadLetterLosesItsCountAndFailureAndKeepsItsOrigin() {
        AMQP.BasicProperties dead = new AMQP.BasicProperties.Builder().messageId("m-1").contentType("application/json")
                .timestamp(new Date(1_000)).headers(Map.of("tenant", "acme", "x-retry-count", 3,
                        Delivery.EXCEPTION_TYPE_HEADER, "java.lang.IllegalStateException",
                        Delivery.EXCEPTION_MESSAGE_HEADER, "card declined", Delivery.ORIGINAL_QUEUE_HEADER, "refunds",
                        Delivery.ORIGINAL_EXCHANGE_HEADER, "payments", Delivery.ORIGINAL_ROUTING_KEY_HEADER, "refund"))
                .build();
        AMQP.BasicProperties copy = ReplayCopy.of(dead, "x-retry-count");
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
        assertEquals(Map.of(DeadLetters.REPLAYED_HEADER, 1), ReplayCopy.of(dead, "x-retry-count").getHeaders());
    }

    @Test
    void theConfiguredRetryCountHeaderIsTheOneRemoved() {
        AMQP.BasicProperties dead = new AMQP.BasicProperties.Builder().headers(Map.of("attempts", 3,
                "x-retry-count", 2)).build();
        assertEquals(Map.of("x-retry-count", 2, DeadLetters.REPLAYED_HEADER, 1),
                ReplayCopy.of(dead, "attempts").getHeaders());
    }

    @Test
    void eachReplayRaisesTheReplayCount() {
        assertEquals(3, ReplayCopy.of(withReplayed(2), "x-retry-count").getHeaders().get(DeadLetters.REPLAYED_HEADER));
        assertEquals(3, ReplayCopy.of(withReplayed(2L), "x-retry-count").getHeaders()
                .get(DeadLetters.REPLAYED_HEADER));
        assertEquals(3, ReplayCopy.of(withReplayed(LongStringHelper.asLongString("2")), "x-retry-count").getHeaders()
                .get(DeadLetters.REPLAYED_HEADER), "written as text by someone else");
        assertEquals(1, ReplayCopy.of(withReplayed("junk"), "x-retry-count").getHeaders()
                .get(DeadLetters.REPLAYED_HEADER));
        assertEquals(1, ReplayCopy.of(new AMQP.BasicProperties(), "x-retry-count").getHeaders()
                .get(DeadLetters.REPLAYED_HEADER), "no headers at all");
    }

    private static AMQP.BasicProperties withReplayed(Object replayed) {
        return new AMQP.BasicProperties.Builder().headers(Map.of(DeadLetters.REPLAYED_HEADER, replayed)).build();
    }
}
