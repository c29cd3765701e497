package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.List;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.OutputNotPublishedException;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.Output;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.HandlerResult;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.PublishAnswer;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;

/**
 * Whatever the verdict, the handler's outputs are closed here: published when it is an ack, else dropped. A delivery
 * acked with outputs goes on once every output is confirmed; an output that does not reach a queue makes it a failure,
 * as a throw would, decided again. Until then the delivery keeps its place in the concurrency gate. Only in the chain
 * of a subscription whose handler takes {@code Outputs}.
 */
final class OutputsBeforeAck implements VerdictStage {

    private static final Logger LOG = Logger.getLogger(OutputsBeforeAck.class);

    private final Settlements settlements;
    private final ResultReading reading;
    private final Decision decision;
    private final Runnable released;
    private final VerdictStage next;

    OutputsBeforeAck(Settlements settlements, ResultReading reading, Decision decision, Runnable released,
            VerdictStage next) {
        this.settlements = settlements;
        this.reading = reading;
        this.decision = decision;
        this.released = released;
        this.next = next;
    }

    @Override
    public void pass(InboundDelivery delivery, Verdict verdict) {
        List<Output> outputs = delivery.takeOutputs();
        if (verdict.settlement() instanceof Settlement.Ack && !outputs.isEmpty()) {
            publishThenPass(delivery, verdict, outputs);
        } else {
            next.pass(delivery, verdict);
        }
    }

    private void publishThenPass(InboundDelivery delivery, Verdict acked, List<Output> outputs) {
        PublishAnswer.whenAnswered(settlements.publishOutputs(delivery, outputs), answer -> {
            if (answer.confirmed()) {
                next.pass(delivery, acked);
            } else if (answer.gone()) {
                // The delivery's channel went, with the delivery: the broker requeues it, nothing is to be sent.
                settlements.abandoned(delivery);
                released.run();
            } else if (answer.cutOnly()) {
                // A cut of the outputs' own channel is no failure of the handler: the delivery goes back to its queue
                // after a pause (outputs that did arrive are duplicated, none is lost).
                LOG.debugf("%s for %s on queue '%s'; requeueing it", answer.why(), delivery.describe(), delivery.queue());
                settlements.requeueAfterPause(delivery, released);
            } else {
                // An output did not reach a queue: logged once, as any failure: WARN while it gets another attempt,
                // ERROR when it is given up.
                HandlerResult failed = reading.failure(new OutputNotPublishedException(answer.why()));
                next.pass(delivery, new Verdict(failed, decision.of(delivery, failed), null));
            }
        });
    }
}
