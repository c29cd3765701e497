package io.quarkiverse.rabbitmq.subscriber;

import java.util.Map;

/**
 * What a handler produces while it handles a delivery: declare a parameter of this type and send through it instead
 * of {@link RabbitPublisher}. The messages are held while the handler runs. When it answers {@code ack}, they are
 * published {@code mandatory}, each confirmed by RabbitMQ, and only then is the delivery acknowledged; on
 * {@code retry}, {@code drop}, {@code retryAfter} or a failure they are discarded, so a retried attempt never leaves
 * a message behind. A nack, a return (no queue took it) or no confirm in time is a failure of the delivery, counted
 * like a throw and logged like one. An output that nobody may want yet says so with
 * {@code OutgoingMessage.mandatory(false)}: it is published without {@code mandatory}, and no queue taking it is fine. A crash
 * between the confirms and the ack duplicates the
 * outputs, never loses them.
 * <p>
 * Payloads are encoded as {@link RabbitPublisher} encodes them ({@code byte[]}, {@code String}, {@code Buffer},
 * {@code JsonObject}, {@code JsonArray} as they are, any other object as JSON); each message gets a random message id, is
 * persistent and
 * carries the delivery's trace context. An instance belongs to one delivery and is valid until the handler's
 * outcome is settled.
 */
public interface Outputs {

    /** Sends to a queue through the default exchange. */
    void send(String queue, Object payload);

    /** Publishes to an exchange with a routing key. */
    default void publish(String exchange, String routingKey, Object payload) {
        publish(exchange, routingKey, payload, Map.of());
    }

    /** Publishes to an exchange with a routing key and application headers. */
    void publish(String exchange, String routingKey, Object payload, Map<String, Object> headers);

    /**
     * Sends a whole message (any exchange or queue, headers, correlation id, reply-to, expiration, priority,
     * persistence), held and published like the others.
     */
    void send(OutgoingMessage message);

    /**
     * Sends to a partitioned subscription of this application by its name and a key, held and published like the
     * others (see {@link RabbitPublisher#toPartition}).
     */
    void sendToPartition(String subscription, String key, Object payload);

    /**
     * Replies to the delivery: sent to its {@code reply-to} through the default exchange, with its correlation id.
     *
     * @throws IllegalStateException when the delivery has no {@code reply-to} (a failure of the delivery, then)
     */
    void reply(Object payload);
}
