package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

/**
 * The handler's side of a delivery, on the thread the handler runs on: {@link HandlerInvocation}, wrapped by the steps
 * that decide whether it runs at all ({@link KillSwitchCheck}), as Quarkus's scheduler wraps its invoker. Never
 * throws: whatever happens is a result.
 */
@FunctionalInterface
interface Handling {

    Object run(InboundDelivery delivery);
}
