package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.FailureInfo;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.HandlerResult;
import io.vertx.core.Context;

/**
 * Reads what a handling came to ({@link ResultReading}) and has it decided ({@link Decision}): the {@link Verdict} the
 * last stages carry out. A delivery its handler never ran for goes back to its queue as it came.
 */
final class ReadResult implements ResultStage {

    private final ResultReading reading;
    private final Decision decision;
    private final VerdictStage next;

    ReadResult(ResultReading reading, Decision decision, VerdictStage next) {
        this.reading = reading;
        this.decision = decision;
        this.next = next;
    }

    @Override
    public void pass(Context context, InboundDelivery delivery, Object result, boolean async) {
        next.pass(delivery, verdict(delivery, result, async));
    }

    private Verdict verdict(InboundDelivery delivery, Object result, boolean async) {
        if (result == KillSwitchCheck.NOT_RUN) {
            return Verdict.NOT_RUN;
        }
        if (result == Inbox.DUPLICATE) {
            return Verdict.DUPLICATE;
        }
        if (result instanceof HandlerInvocation.Undecodable undecodable) {
            HandlerResult read = new HandlerResult.Undecodable(FailureInfo.of(undecodable.cause()));
            return new Verdict(read, decision.of(delivery, read), undecodable.cause());
        }
        HandlerResult read = reading.read(result, async);
        if (result instanceof HandlerInvocation.Failed thrown) {
            return new Verdict(read, decision.of(delivery, read), thrown.cause());
        }
        return Verdict.of(read, decision.of(delivery, read));
    }
}
