package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

/**
 * The handler's side of a delivery (or of a batch), on the thread the handler runs on: {@link HandlerInvocation}
 * ({@code BatchInvocation}), wrapped by the steps
 * that decide whether it runs at all ({@code KillSwitchCheck}), as Quarkus's scheduler wraps its invoker. Never
 * throws: whatever happens is a result.
 */
@FunctionalInterface
public interface Handling<U> {

    /** @param unit an {@link InboundDelivery}, or a batch handler's {@code DeliveryBatch} */
    Object run(U unit);
}
