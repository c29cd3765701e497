package io.quarkiverse.rabbitmq.subscriber.runtime.delay;

import java.time.Duration;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * Where the copy of a message waits out a {@code retryAfter} delay. The settlement plan says how long a copy waits;
 * the subscription's strategy says where: in the service, or on the broker (the copy is then published now, to a
 * waiting queue or the delayed exchange, and the broker brings it back to the work queue when it is due).
 */
public interface DelayStrategy {

    /** Where a copy (its properties ready, retry count raised) delayed by {@code delay} goes. */
    Placement place(AMQP.BasicProperties copy, Duration delay);

    /** What the settler does with a delayed copy. */
    sealed interface Placement {
    }

    /** The service holds the copy until it is due ({@code IN_SERVICE}). */
    record HoldInService() implements Placement {
    }

    /** Publish the copy now, before the original is acked; the broker holds it until it is due. */
    record Publish(String exchange, String routingKey, boolean mandatory, AMQP.BasicProperties properties)
            implements
                Placement {
    }

    Placement HOLD = new HoldInService();

    /** The subscription's strategy. */
    static DelayStrategy of(SubscriptionSpec subscription) {
        return switch (subscription.delay) {
            case IN_SERVICE -> (copy, delay) -> HOLD;
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
