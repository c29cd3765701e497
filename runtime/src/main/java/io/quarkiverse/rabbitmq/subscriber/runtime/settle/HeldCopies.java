package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.time.Duration;

import com.rabbitmq.client.AMQP;

/**
 * The copies a subscription holds in the service until they are due ({@code IN_SERVICE} delays): the settler hands a
 * copy over and acks its original at once. The delay feature implements it ({@code delay.InServiceDelay}).
 */
public interface HeldCopies {

    /**
     * Holds a copy until {@code delay} has passed, then publishes it to its queue.
     *
     * @param messageId names the message in logs
     */
    void hold(AMQP.BasicProperties properties, byte[] body, String messageId, Duration delay);
}
