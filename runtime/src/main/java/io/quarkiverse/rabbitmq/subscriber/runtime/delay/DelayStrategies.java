package io.quarkiverse.rabbitmq.subscriber.runtime.delay;

import java.time.Duration;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.CopyDelay;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * The {@link CopyDelay} of each subscription's {@code delay}: held in the service, or published now to a waiting queue
 * or the delayed exchange.
 */
public final class DelayStrategies {

    private DelayStrategies() {
    }

    /** The subscription's strategy. */
    public static CopyDelay of(SubscriptionSpec subscription) {
        return switch (subscription.delay) {
            case IN_SERVICE -> (copy, delay) -> CopyDelay.HOLD;
            case DLX_TTL -> new WaitingQueueDelay(subscription.waitingQueue);
            case DLX_TTL_PER_DELAY -> new WaitingQueuePerDelay(subscription);
            case PLUGIN -> new DelayedExchangeDelay(subscription.delayedExchange, subscription.queue);
        };
    }

    /** A delay as an AMQP per-message expiration or {@code x-delay}: whole milliseconds, never negative. */
    static long millis(Duration delay) {
        try {
            return Math.max(0, delay.toMillis());
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
