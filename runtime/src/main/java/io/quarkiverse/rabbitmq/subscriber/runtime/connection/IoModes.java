package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import java.util.Optional;

import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;

/**
 * Which of amqp-client's two I/O modes each connection uses ({@code quarkus.rabbitmq-subscriber.nio}).
 * <p>
 * The blocking mode reads a frame with bulk copies; the NIO mode's frame reader takes every byte through its own branch
 * (how it copes with frames split across reads), which measured 1.8 µs of CPU per delivered message more (the
 * Performance page). But in the blocking mode every frame is a socket write made by the thread that sends it: a
 * connection RabbitMQ stops reading (it does so to every connection that publishes during a memory or disk alarm)
 * would, once the socket's buffer is full, block that thread, the event loop among them. NIO queues the frames on its
 * own thread.
 * <p>
 * So, unless configured: the subscribers' connection reads in the blocking mode, since all it writes are acks and
 * rejects, which an alarm never stops, and a stalled peer is found by the heartbeat, which closes the socket and fails
 * the write; unless subscribers publish their copies and outputs on it ({@code copy-channel=delivery-channel}). The
 * publisher's connection, on which application threads and event loops publish, stays on NIO.
 *
 * @param subscribers whether the subscribers' connection uses NIO
 * @param publisher whether the publisher's connection uses NIO
 */
public record IoModes(boolean subscribers, boolean publisher) {

    /**
     * @param configured {@code quarkus.rabbitmq-subscriber.nio}: when set, both connections use that mode
     * @param copyChannel {@code quarkus.rabbitmq-subscriber.copy-channel}
     */
    public static IoModes of(Optional<Boolean> configured, SubscriberConfig.CopyChannel copyChannel) {
        if (configured.isPresent()) {
            return new IoModes(configured.get(), configured.get());
        }
        return new IoModes(copyChannel == SubscriberConfig.CopyChannel.DELIVERY_CHANNEL, true);
    }
}
