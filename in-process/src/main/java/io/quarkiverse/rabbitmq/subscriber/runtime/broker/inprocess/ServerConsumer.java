package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;

/**
 * A basic.consume of the in-process broker, with its prefetch and its unacked deliveries; a no-ack one has neither,
 * its deliveries are settled as they are sent.
 */
final class ServerConsumer {

    final String tag;
    final ServerChannel channel;
    final ServerQueue queue;
    final int prefetch;
    final DeliveryHandler handler;
    final boolean autoAck;
    /**
     * RabbitMQ 4.3's own timeout of a quorum queue's consumer ({@code x-consumer-timeout}), in milliseconds: a delivery
     * unsettled for that long goes back to the queue, not counted, and the consumer is cancelled; 0 for none.
     */
    final long timeoutMillis;
    /** Its {@code x-priority}: the queue's messages go to the highest that has room (0 when not given). */
    final int priority;
    int unacked;
    /** A broker fault a test asked for ({@link InProcessServer#loseDeliveries}): handed out, never sent. */
    boolean losesDeliveries;

    ServerConsumer(String tag, ServerChannel channel, ServerQueue queue, int prefetch, DeliveryHandler handler,
            boolean autoAck, long timeoutMillis, int priority) {
        this.tag = tag;
        this.channel = channel;
        this.queue = queue;
        this.prefetch = prefetch;
        this.handler = handler;
        this.autoAck = autoAck;
        this.timeoutMillis = timeoutMillis;
        this.priority = priority;
    }

    /** Whether it may take one more delivery: prefetch bounds only what waits for an ack. */
    boolean hasCredit() {
        return autoAck || prefetch == 0 || unacked < prefetch;
    }
}
