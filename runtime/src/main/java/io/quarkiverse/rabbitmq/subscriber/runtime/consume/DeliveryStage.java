package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.vertx.core.Context;

/**
 * One step of a delivery on its way to its handler, on the subscriber's event loop (the concurrency gate, the call).
 * A subscription's steps are chained once, by {@code DeliveryChain}: a step that does not apply to it is not there.
 */
@FunctionalInterface
public interface DeliveryStage {

    /** @param context the delivery's own duplicated context of the subscriber's event loop */
    void pass(Context context, InboundDelivery delivery);

    /** The subscriber stops taking deliveries: a stage that holds some for later lets them go on now. */
    default void draining() {
    }
}
