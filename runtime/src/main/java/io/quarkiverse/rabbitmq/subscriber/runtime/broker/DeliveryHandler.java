package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

/** Receives a consumer's deliveries, on the broker's dispatch thread: it must hand them off, not process them. */
@FunctionalInterface
public interface DeliveryHandler {

    void delivered(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body);
}
