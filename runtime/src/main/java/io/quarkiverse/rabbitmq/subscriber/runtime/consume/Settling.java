package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/**
 * The last stage: sends the verdict's settlement on the delivery's channel and frees its place in the concurrency
 * gate. A second verdict for the same delivery (a bug) sends nothing and frees no place.
 */
public final class Settling implements VerdictStage {

    private final Settlements settlements;
    private final Runnable released;

    public Settling(Settlements settlements, Runnable released) {
        this.settlements = settlements;
        this.released = released;
    }

    @Override
    public void pass(InboundDelivery delivery, Verdict verdict) {
        if (settlements.settle(delivery, verdict.settlement())) {
            released.run();
        }
    }
}
