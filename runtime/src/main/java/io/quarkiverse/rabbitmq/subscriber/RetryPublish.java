package io.quarkiverse.rabbitmq.subscriber;

/**
 * How a classic queue's copies and dead letters are published when a subscription caps its deliveries
 * ({@code maxAttempts}). Both publish {@code mandatory}, before the original is acknowledged, on the delivery's own
 * channel.
 */
public enum RetryPublish {
    /**
     * Fire and forget: the original is acknowledged right after the copy is written. A copy or dead letter the broker
     * cannot route (its queue was deleted) comes back as a return; the runtime then publishes it back to the work queue
     * a second later and logs an ERROR naming the missing queue, so it is not lost.
     */
    DEFAULT,
    /**
     * The original is acknowledged only once the broker confirmed the copy (confirms are pipelined: many copies in
     * flight at once). A nack, a return or no confirm within
     * {@code quarkus.rabbitmq-subscriber.publisher.confirm-timeout} requeues the original instead, a second later.
     */
    CONFIRMED
}
