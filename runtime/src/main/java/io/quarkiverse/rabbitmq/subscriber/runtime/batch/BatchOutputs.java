package io.quarkiverse.rabbitmq.subscriber.runtime.batch;

import java.util.List;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.OutputNotPublishedException;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.CommittedOutputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.PublishAnswer;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/**
 * A batch handler's outputs, one group per batch: published, each confirmed, once the handler returned with at least
 * one item acked, before any item is settled; dropped otherwise. {@code OutputsBeforeAck} and {@code OutboxBeforeAck}
 * for a batch: an output that reaches no queue fails every item the batch acked (as a throw would, each decided
 * again); with the inbox the group is committed in the outbox already, so an output that cannot leave now is only
 * published again by the relay and the items are settled as the handler said. Only in the chain of a batch handler
 * that takes {@code Outputs}.
 */
public final class BatchOutputs {

    private static final Logger LOG = Logger.getLogger(BatchOutputs.class);

    /** Settles a batch's items with their results (one per item of the handler's list). */
    interface Settle {
        void items(DeliveryBatch batch, Object[] perItem);
    }

    private final Settlements settlements;

    public BatchOutputs(Settlements settlements) {
        this.settlements = settlements;
    }

    /**
     * @param finished told when the items are left to the broker (their channel went) instead of settled
     */
    void publishThen(DeliveryBatch batch, Object[] perItem, Settle settle, Runnable finished) {
        List<Output> outputs = batch.takeOutputs();
        CommittedOutputs group = batch.committedOutputs();
        batch.committedOutputs(null);
        if (group != null) {
            outputs = group.outputs();
        }
        if (outputs.isEmpty() || !anyAcked(perItem)) {
            settle.items(batch, perItem);
            return;
        }
        InboundDelivery lead = batch.handled().get(0);
        PublishAnswer.whenAnswered(settlements.publishOutputs(lead, outputs), answer -> {
            if (answer.confirmed()) {
                if (group != null) {
                    group.published();
                }
                settle.items(batch, perItem);
            } else if (answer.gone()) {
                // The deliveries went with their channel: the broker requeues them (with the inbox, as duplicates
                // whose outputs the relay sends).
                batch.items().forEach(settlements::abandoned);
                finished.run();
            } else if (group != null) {
                LOG.warnf("The outputs of %s on queue '%s' are committed in the outbox but could not be published now "
                        + "(%s): the messages are settled, and the outbox's relay publishes them again",
                        batch.describe(), lead.queue(), answer.why());
                settle.items(batch, perItem);
            } else if (answer.cutOnly()) {
                // A cut of the outputs' own channel is no failure of the handler: back to the queue after a pause.
                LOG.debugf("%s for %s on queue '%s'; requeueing them", answer.why(), batch.describe(), lead.queue());
                for (InboundDelivery item : batch.items()) {
                    settlements.requeueAfterPause(item, () -> {
                    });
                }
                finished.run();
            } else {
                settle.items(batch, failingAcked(perItem, new OutputNotPublishedException(answer.why())));
            }
        });
    }

    private static boolean anyAcked(Object[] perItem) {
        for (int i = 0; i < perItem.length; i++) {
            if (BatchReading.acks(perItem, i)) {
                return true;
            }
        }
        return false;
    }

    /** Every acked item failed as a throw would fail it; the others keep their outcomes. */
    private static Object[] failingAcked(Object[] perItem, Throwable failure) {
        Object[] failed = perItem.clone();
        Verdict thrown = Verdict.thrown(failure);
        for (int i = 0; i < failed.length; i++) {
            if (BatchReading.acks(perItem, i)) {
                failed[i] = thrown;
            }
        }
        return failed;
    }
}
