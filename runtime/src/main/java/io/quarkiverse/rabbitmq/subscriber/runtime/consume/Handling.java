package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

/**
 * The handler's side of a delivery (or of a batch), on the thread the handler runs on: {@link HandlerInvocation}
 * ({@link BatchInvocation}), wrapped by the steps
 * that decide whether it runs at all ({@link KillSwitchCheck}), as Quarkus's scheduler wraps its invoker. Never
 * throws: whatever happens is a result.
 */
@FunctionalInterface
interface Handling<U> {

    /** @param unit an {@link InboundDelivery}, or a batch handler's {@link DeliveryBatch} */
    Object run(U unit);
}
