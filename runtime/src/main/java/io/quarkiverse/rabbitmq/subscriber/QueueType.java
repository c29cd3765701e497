package io.quarkiverse.rabbitmq.subscriber;

/** The kind of queue a subscriber consumes; it decides the {@code x-queue-type} argument of its declaration. */
public enum QueueType {
    /** A classic queue: it counts no deliveries. */
    CLASSIC,
    /** A quorum queue: it counts deliveries ({@code x-delivery-count}) and can cap them ({@code x-delivery-limit}). */
    QUORUM,
    /**
     * A stream: an append-only log, read from an offset over RabbitMQ's stream protocol (the {@code rabbitmq_stream}
     * plugin), the consumer's position stored on the server. A retry runs again in place, so order holds; a dead letter
     * is a confirmed copy in the dead-letter queue. See the Streams page.
     */
    STREAM
}
