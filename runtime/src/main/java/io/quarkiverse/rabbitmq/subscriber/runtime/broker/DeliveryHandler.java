package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

/** Receives a consumer's deliveries, on the broker's dispatch thread: it must hand them off, not process them. */
@FunctionalInterface
public interface DeliveryHandler {

    void delivered(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body);

    /** The broker cancelled the consumer (its queue was deleted, for one). */
    default void cancelled() {
    }
}
