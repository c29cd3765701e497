package io.quarkiverse.rabbitmq.subscriber.runtime.killswitch;

import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.VerdictStage;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/**
 * Counts each handling for the subscription's kill switch: a failure (a throw, a wrong result, an output that did not
 * reach a queue) towards tripping it, any outcome back to zero. An undecodable body or a delivery never run counts
 * neither way. Only in the chain of a subscription that has a kill switch.
 */
public final class KillSwitchCounting implements VerdictStage {

    /** The subscription's {@code KillSwitch.failed} and {@code KillSwitch.succeeded}. */
    private final Runnable failed;
    private final Runnable succeeded;
    private final VerdictStage next;

    public KillSwitchCounting(Runnable failed, Runnable succeeded, VerdictStage next) {
        this.failed = failed;
        this.succeeded = succeeded;
        this.next = next;
    }

    @Override
    public void pass(InboundDelivery delivery, Verdict verdict) {
        if (verdict.isFailed()) {
            failed.run();
        } else if (verdict.isHandled()) {
            succeeded.run();
        }
        next.pass(delivery, verdict);
    }
}
