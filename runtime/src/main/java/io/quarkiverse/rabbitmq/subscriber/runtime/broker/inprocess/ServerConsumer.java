package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;

/** A basic.consume of the in-process broker, with its prefetch and its unacked deliveries. */
final class ServerConsumer {

    final String tag;
    final ServerChannel channel;
    final ServerQueue queue;
    final int prefetch;
    final DeliveryHandler handler;
    int unacked;

    ServerConsumer(String tag, ServerChannel channel, ServerQueue queue, int prefetch, DeliveryHandler handler) {
        this.tag = tag;
        this.channel = channel;
        this.queue = queue;
        this.prefetch = prefetch;
        this.handler = handler;
    }

    boolean hasCredit() {
        return prefetch == 0 || unacked < prefetch;
    }
}
