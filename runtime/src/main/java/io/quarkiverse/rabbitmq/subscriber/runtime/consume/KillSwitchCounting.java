package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.HandlerResult;

/**
 * Counts each handling for the subscription's kill switch: a failure (a throw, a wrong result, an output that did not
 * reach a queue) towards tripping it, any outcome back to zero. An undecodable body or a delivery never run counts
 * neither way. Only in the chain of a subscription that has a kill switch.
 */
final class KillSwitchCounting implements VerdictStage {

    /** The subscription's {@code KillSwitch.failed} and {@code KillSwitch.succeeded}. */
    private final Runnable failed;
    private final Runnable succeeded;
    private final VerdictStage next;

    KillSwitchCounting(Runnable failed, Runnable succeeded, VerdictStage next) {
        this.failed = failed;
        this.succeeded = succeeded;
        this.next = next;
    }

    @Override
    public void pass(InboundDelivery delivery, Verdict verdict) {
        if (verdict.result() instanceof HandlerResult.Failed) {
            failed.run();
        } else if (verdict.result() instanceof HandlerResult.Handled) {
            succeeded.run();
        }
        next.pass(delivery, verdict);
    }
}
