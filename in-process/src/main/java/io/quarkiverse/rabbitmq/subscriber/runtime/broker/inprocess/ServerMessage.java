package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.util.List;

import com.rabbitmq.client.AMQP;

/** One message in one queue of the in-process broker. Touched only on the broker's thread. */
final class ServerMessage {

    final AMQP.BasicProperties properties;
    final byte[] body;
    /** The exchange it was last published to, and the routing keys it was published with (x-death records both). */
    final String exchange;
    final List<String> routingKeys;
    /** Absolute expiry on the broker's clock, or -1. */
    final long expiresAt;
    /** Its place in the queue: requeued messages of a classic queue go back to it. */
    long position;
    /** Times it went back to the queue unsettled (reject with requeue, channel closed): a quorum queue counts them. */
    int returns;
    boolean delivered;
    /** Times it was handed out (to a consumer, or with basic.get): RabbitMQ 4.3's quorum queues tell it. */
    int acquired;
    /** It came here by dead-lettering: its death headers are the broker's own, not a publisher's. */
    boolean deadLettered;

    ServerMessage(AMQP.BasicProperties properties, byte[] body, String exchange, List<String> routingKeys,
            long expiresAt) {
        this.properties = properties;
        this.body = body;
        this.exchange = exchange;
        this.routingKeys = routingKeys;
        this.expiresAt = expiresAt;
    }

    String routingKey() {
        return routingKeys.get(0);
    }
}
