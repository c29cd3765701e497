package io.quarkiverse.rabbitmq.subscriber.runtime.delay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.CopyDelay;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/** Where each strategy puts a delayed copy: the plan says how long, the strategy where. */
class DelayStrategyTest {

    static final AMQP.BasicProperties COPY = new AMQP.BasicProperties.Builder().messageId("m-1")
            .headers(Map.of("x-retry-count", 2, "tenant", "acme")).build();

    static CopyDelay.Publish place(SubscriptionSpec subscription, Duration delay) {
        return (CopyDelay.Publish) DelayStrategies.of(subscription).place(COPY, delay);
    }

    @Test
    void inServiceHoldsTheCopy() {
        assertSame(CopyDelay.HOLD,
                DelayStrategies.of(SubscriptionSpec.builder("refunds").build()).place(COPY, Duration.ofSeconds(30)));
    }

    @Test
    void aWaitingQueueTakesTheCopyWithItsDelayAsExpiration() {
        CopyDelay.Publish publish = place(SubscriptionSpec.builder("refunds").delay(Delay.DLX_TTL).build(),
                Duration.ofSeconds(30));
        assertEquals("", publish.exchange());
        assertEquals("refunds.retry", publish.routingKey());
        assertTrue(publish.mandatory());
        assertEquals("30000", publish.properties().getExpiration());
        assertEquals(COPY.getHeaders(), publish.properties().getHeaders(), "every header kept");
        assertEquals("m-1", publish.properties().getMessageId());
    }

    @Test
    void aNamedWaitingQueue() {
        assertEquals("refunds.later", place(SubscriptionSpec.builder("refunds").delay(Delay.DLX_TTL)
                .waitingQueue("refunds.later").build(), Duration.ofMillis(1)).routingKey());
    }

    @Test
    void perDelayPicksTheQueueOfTheDelayOrTheNextLongerOne() {
        SubscriptionSpec subscription = SubscriptionSpec.builder("refunds").delay(Delay.DLX_TTL_PER_DELAY)
                .delays(List.of("1m", "1s", "30s")).build();
        assertEquals("refunds.retry.1s", place(subscription, Duration.ofSeconds(1)).routingKey());
        assertEquals("refunds.retry.1s", place(subscription, Duration.ofMillis(10)).routingKey());
        assertEquals("refunds.retry.30s", place(subscription, Duration.ofSeconds(5)).routingKey(),
                "never less than asked");
        assertEquals("refunds.retry.1m", place(subscription, Duration.ofMinutes(1)).routingKey());
        assertEquals("refunds.retry.1m", place(subscription, Duration.ofHours(1)).routingKey(),
                "longer than every listed delay: the longest");
        assertNull(place(subscription, Duration.ofSeconds(1)).properties().getExpiration(), "the queue's TTL decides");
    }

    @Test
    void thePluginTakesTheDelayInTheXDelayHeaderWithoutMandatory() {
        CopyDelay.Publish publish = place(SubscriptionSpec.builder("refunds").delay(Delay.PLUGIN)
                .delayedExchange("delayed").build(), Duration.ofMillis(1500));
        assertEquals("delayed", publish.exchange());
        assertEquals("refunds", publish.routingKey());
        assertFalse(publish.mandatory(), "the plugin returns every mandatory message it holds");
        assertEquals(1500, publish.properties().getHeaders().get("x-delay"));
        assertEquals("acme", publish.properties().getHeaders().get("tenant"));
    }
}
