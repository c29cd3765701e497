package io.quarkiverse.rabbitmq.subscriber.runtime.delay;

import java.util.concurrent.CompletionStage;

import com.rabbitmq.client.AMQP;

/**
 * Publishes a message as it is, {@code mandatory}, and says once RabbitMQ confirmed it; fails when it nacked or
 * returned it, did not answer in time, or the channel went first. The runtime's publisher does it
 * ({@code BrokerRabbitPublisher.publishConfirmed}).
 */
@FunctionalInterface
public interface ConfirmedPublish {

    CompletionStage<Void> publish(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body);
}
