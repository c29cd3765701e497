package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.Map;

import io.quarkus.runtime.annotations.RecordableConstructor;

/**
 * A subscription's ordered partitions ({@code @Subscriber(partitions, partitionKey)}): how many, what the
 * consistent-hash exchange hashes, and, once the subscription is split into its partitions ({@link Partitions}), which
 * one a partition queue is.
 */
public final class Partitioning {

    /** RabbitMQ's consistent-hash exchange type ({@code rabbitmq_consistent_hash_exchange}). */
    public static final String EXCHANGE_TYPE = "x-consistent-hash";
    public static final String ROUTING_KEY = "routing-key";
    public static final String MESSAGE_ID = "message-id";
    public static final String HEADER_PREFIX = "header:";

    /** How many partition queues. */
    public final int count;
    /** As normalized: {@link #ROUTING_KEY}, {@link #MESSAGE_ID} or {@code header:<name>}. */
    public final String key;
    /** Which partition this queue is, 0 .. count-1; -1 for the subscription as declared (not split yet). */
    public final int index;
    /** The subscription's own name, which is its exchange's: null until it is split. */
    public final String exchange;

    @RecordableConstructor
    public Partitioning(int count, String key, int index, String exchange) {
        this.count = count;
        this.key = key;
        this.index = index;
        this.exchange = exchange;
    }

    /** The declared partitions; an empty key hashes the routing key. */
    static Partitioning declared(int count, String key) {
        return new Partitioning(count, key == null || key.isBlank() ? ROUTING_KEY : key.trim(), -1, null);
    }

    /** Partition {@code index} of the subscription {@code exchange}. */
    Partitioning partition(int index, String exchange) {
        return new Partitioning(count, key, index, exchange);
    }

    /** Whether this is one partition queue of a split subscription. */
    public boolean isPartition() {
        return index >= 0;
    }

    /** The name of partition {@code index} of the subscription whose queue is {@code queue}. */
    public static String queueName(String queue, int index) {
        return queue + "." + index;
    }

    /**
     * Whether the key is one this knows: the routing key, the message-id, or a header with a name. Read by the rules,
     * which name a key that is not.
     */
    boolean keyKnown() {
        return key.equals(ROUTING_KEY) || key.equals(MESSAGE_ID)
                || key.startsWith(HEADER_PREFIX) && !key.substring(HEADER_PREFIX.length()).isBlank();
    }

    /**
     * The exchange's arguments: the plugin hashes the routing key unless told a header ({@code hash-header}) or a
     * property ({@code hash-property}).
     */
    public Map<String, Object> exchangeArguments() {
        if (key.equals(MESSAGE_ID)) {
            return Map.of("hash-property", "message_id");
        }
        if (key.startsWith(HEADER_PREFIX)) {
            return Map.of("hash-header", key.substring(HEADER_PREFIX.length()));
        }
        return Map.of();
    }

    /**
     * A message to the partitions' exchange with {@code key} where the exchange reads it: the routing key, the
     * message-id, or the header.
     */
    public io.quarkiverse.rabbitmq.subscriber.OutgoingMessage addressed(String key) {
        if (key == null) {
            throw new IllegalArgumentException("A message for the partitions of '" + exchange + "' needs a key, and was "
                    + "given null");
        }
        if (this.key.equals(MESSAGE_ID)) {
            return io.quarkiverse.rabbitmq.subscriber.OutgoingMessage.to(exchange, "").messageId(key);
        }
        if (this.key.startsWith(HEADER_PREFIX)) {
            return io.quarkiverse.rabbitmq.subscriber.OutgoingMessage.to(exchange, "")
                    .header(this.key.substring(HEADER_PREFIX.length()), key);
        }
        return io.quarkiverse.rabbitmq.subscriber.OutgoingMessage.to(exchange, key);
    }

    @Override
    public String toString() {
        return count + " partitions by " + key + (index >= 0 ? ", partition " + index + " of '" + exchange + "'" : "");
    }
}
