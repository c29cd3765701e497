package io.quarkiverse.rabbitmq.subscriber;

/** The kind of queue a subscriber consumes; it decides the {@code x-queue-type} argument of its declaration. */
public enum QueueType {
    /** A classic queue: it counts no deliveries. */
    CLASSIC,
    /** A quorum queue: it counts deliveries ({@code x-delivery-count}) and can cap them ({@code x-delivery-limit}). */
    QUORUM
}
