package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.consume.CommittedOutputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.VerdictStage;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.OutputsBeforeAck;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.PublishAnswer;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/**
 * The outputs of an inbox handler, which its transaction committed to the outbox ({@link InboxCheck}): published with
 * confirms, in order, with the message-ids their rows keep; once confirmed the delivery is acked, and their rows are
 * deleted soon after with other groups' (the ack does not wait for that: a crash in between leaves rows the relay
 * publishes again, with the same message-ids). The effects are committed whatever RabbitMQ answers, so an output that cannot
 * leave now is no
 * failure of the handler (a retry would only come back as a duplicate): the delivery is acked and the rows stay for
 * the outbox's relay, which sends them again. Only in the chain of an inbox subscription whose handler takes
 * {@code Outputs}; in place of {@link OutputsBeforeAck}.
 */
public final class OutboxBeforeAck implements VerdictStage {

    private static final Logger LOG = Logger.getLogger(OutboxBeforeAck.class);

    private final Settlements settlements;
    private final Runnable released;
    private final VerdictStage next;

    public OutboxBeforeAck(Settlements settlements, Runnable released, VerdictStage next) {
        this.settlements = settlements;
        this.released = released;
        this.next = next;
    }

    @Override
    public void pass(InboundDelivery delivery, Verdict verdict) {
        // Closed whatever the verdict: a handler that did not ack has nothing in the outbox.
        delivery.takeOutputs();
        CommittedOutputs group = delivery.committedOutputs();
        delivery.committedOutputs(null);
        if (group == null || !(verdict.settlement() instanceof Settlement.Ack)) {
            next.pass(delivery, verdict);
            return;
        }
        PublishAnswer.whenAnswered(settlements.publishOutputs(delivery, group.outputs()), answer -> {
            if (answer.confirmed()) {
                group.published();
                next.pass(delivery, verdict);
            } else if (answer.gone()) {
                // The delivery went with its channel: its redelivery is a duplicate, and the relay sends the outputs.
                settlements.abandoned(delivery);
                released.run();
            } else {
                LOG.warnf("The outputs of %s on queue '%s' are committed in the outbox but could not be published now "
                        + "(%s): the message is acked, and the outbox's relay publishes them again",
                        delivery.describe(), delivery.queue(), answer.why());
                next.pass(delivery, verdict);
            }
        });
    }
}
