package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;

/**
 * Which way a subscriber's deliveries go from the client's reader thread to the handler, decided once from the
 * handler's execution model and concurrency bound.
 */
enum DeliveryRoute {
    /** The handler runs on the subscriber's event loop: deliveries queue in the consumer's inbox for the loop. */
    EVENT_LOOP,
    /** An off-loop handler with a concurrency bound: through the event loop, where the waiting line is, to its thread. */
    GATED,
    /**
     * An off-loop handler without a bound: straight from the reader thread to the handler's thread, without waking the
     * event loop (that wake-up cost about a third of a worker drain); the loop sees the delivery with its result.
     */
    DIRECT;

    static DeliveryRoute of(SubscriberDefinition definition) {
        if (definition.executionModel == SubscriberDefinition.ExecutionModel.EVENT_LOOP) {
            return EVENT_LOOP;
        }
        return definition.subscription.concurrency > 0 ? GATED : DIRECT;
    }
}
