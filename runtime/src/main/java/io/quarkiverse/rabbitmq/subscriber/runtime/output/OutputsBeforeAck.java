package io.quarkiverse.rabbitmq.subscriber.runtime.output;

import java.util.List;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.OutputNotPublishedException;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.ResultReading;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.VerdictStage;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.PublishAnswer;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/**
 * Whatever the verdict, the handler's outputs are closed here: published when it is an ack, else dropped. A delivery
 * acked with outputs goes on once every output is confirmed; an output that does not reach a queue makes it a failure,
 * as a throw would, decided again. Until then the delivery keeps its place in the concurrency gate. Only in the chain
 * of a subscription whose handler takes {@code Outputs}.
 */
public final class OutputsBeforeAck implements VerdictStage {

    private static final Logger LOG = Logger.getLogger(OutputsBeforeAck.class);

    private final Settlements settlements;
    private final ResultReading reading;
    private final Runnable released;
    private final VerdictStage next;

    public OutputsBeforeAck(Settlements settlements, ResultReading reading, Runnable released,
            VerdictStage next) {
        this.settlements = settlements;
        this.reading = reading;
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
                next.pass(delivery, reading.failed(delivery, new OutputNotPublishedException(answer.why())));
            }
        });
    }
}
