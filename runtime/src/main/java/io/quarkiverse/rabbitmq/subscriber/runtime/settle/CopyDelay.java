package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.time.Duration;

import com.rabbitmq.client.AMQP;

/**
 * Where the copy of a message waits out a {@code retryAfter} delay. The settlement plan says how long a copy waits;
 * the subscription's delay says where: in the service ({@link HeldCopies}), or on the broker (the copy is then
 * published now, to a waiting queue or the delayed exchange, and the broker brings it back to the work queue when it
 * is due). The delay feature implements it ({@code delay.DelayStrategies}).
 */
public interface CopyDelay {

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
}
