package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.apache.commons.codec.digest.MurmurHash3;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;

/**
 * A super stream ({@code type = QueueType.STREAM, partitions = N}): N partition streams behind one exchange, laid out as
 * RabbitMQ lays one out ({@code rabbitmq-streams add_super_stream}), so that the stream client's producers and
 * consumers of other services see the same super stream: a direct exchange named as the super stream, marked
 * {@code x-super-stream}; streams {@code <name>-0 .. <name>-(N-1)}; partition {@code i} bound with the key {@code "i"}
 * and its place in the order ({@code x-stream-partition-order}).
 * <p>
 * A key goes to the partition the stream client's producers send it to: the unsigned MurmurHash3 (x86, 32 bits, seed
 * 104729) of its UTF-8 bytes, modulo N.
 */
public final class SuperStream {

    /** The exchange argument RabbitMQ marks a super stream's exchange with. */
    public static final Map<String, Object> EXCHANGE_ARGUMENTS = Map.of("x-super-stream", true);
    /** The binding argument that gives a partition its place: the stream client lists partitions in this order. */
    public static final String PARTITION_ORDER = "x-stream-partition-order";
    /** The exchange's type: a partition's binding key is its index. */
    public static final String EXCHANGE_TYPE = "direct";

    /** The stream client's seed ({@code HashUtils.Murmur3}). */
    private static final int SEED = 104729;

    private SuperStream() {
    }

    /** The name of partition {@code index} of super stream {@code name}. */
    public static String partition(String name, int index) {
        return name + "-" + index;
    }

    /** The key partition {@code index} is bound to its exchange with. */
    public static String bindingKey(int index) {
        return Integer.toString(index);
    }

    /** Which of {@code count} partitions {@code key} goes to. */
    public static int partitionOf(String key, int count) {
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        return Integer.remainderUnsigned(MurmurHash3.hash32x86(bytes, 0, bytes.length, SEED), count);
    }

    /**
     * A message for super stream {@code name}, carrying {@code key}: sent to its exchange with the binding key of the
     * key's partition, and the key also where the subscription's {@code partitionKey} says (the message-id or the
     * header; the routing key is the partition's).
     */
    public static OutgoingMessage addressed(String name, Partitioning partitioning, String key) {
        if (key == null) {
            throw new IllegalArgumentException("A message for the super stream '" + name + "' needs a key, and was "
                    + "given null");
        }
        OutgoingMessage message = OutgoingMessage.to(name, bindingKey(partitionOf(key, partitioning.count)));
        if (partitioning.key.equals(Partitioning.MESSAGE_ID)) {
            return message.messageId(key);
        }
        if (partitioning.key.startsWith(Partitioning.HEADER_PREFIX)) {
            return message.header(partitioning.key.substring(Partitioning.HEADER_PREFIX.length()), key);
        }
        return message;
    }
}
