package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.function.BooleanSupplier;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;

/**
 * Where a subscriber's copies and dead letters leave: a channel of their own on the publishing connection (RabbitMQ
 * blocks a connection that publishes during a memory or disk alarm, and the subscribers' connection must keep acking
 * then), or the delivery's own channel.
 *
 * @param channel the channel the copies are published on
 * @param own whether that channel carries nothing but the copies (not the delivery's channel)
 * @param blocked whether RabbitMQ blocks that channel's connection now
 */
public record CopyOutlet(BrokerChannel channel, boolean own, BooleanSupplier blocked) {
}
