package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

/**
 * How a subscriber's deliveries go from the client's reader thread towards the handler: {@link EventLoopRoute}
 * (through the subscriber's event loop) or {@link DirectRoute} (straight to the handler's thread). Chosen once per
 * subscription by {@code DeliveryChain} from the handler's execution model and concurrency bound; its
 * {@link SubscriberConsumer} hands it every delivery.
 */
public interface DeliveryRoute {

    /** Called on the client's reader thread, in delivery order; never blocks. */
    void take(InboundDelivery delivery);

    /** The subscriber stops taking deliveries (a pause, a stop): what waits for more (an open batch) goes on now. */
    default void draining() {
    }
}
