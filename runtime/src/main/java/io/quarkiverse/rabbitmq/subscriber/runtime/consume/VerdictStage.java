package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/** One step of a decided {@link Verdict} on its way to the channel, on the subscriber's event loop. */
@FunctionalInterface
public interface VerdictStage {

    void pass(InboundDelivery delivery, Verdict verdict);
}
