package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

/** One step of a decided {@link Verdict} on its way to the channel, on the subscriber's event loop. */
@FunctionalInterface
interface VerdictStage {

    void pass(InboundDelivery delivery, Verdict verdict);
}
