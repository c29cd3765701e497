package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

/** A message taken with basic.get, and how many stayed in the queue. */
public record Fetched(Envelope envelope, AMQP.BasicProperties properties, byte[] body, int messageCount) {
}
