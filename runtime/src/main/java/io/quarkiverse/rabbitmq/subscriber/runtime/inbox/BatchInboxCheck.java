package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.runtime.batch.BatchOutputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.batch.BatchReading;
import io.quarkiverse.rabbitmq.subscriber.runtime.batch.DeliveryBatch;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.Handling;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/**
 * {@link InboxCheck} for a batch: the batch's handling runs in one inbox transaction ({@link Inbox#runBatch}). Items
 * the inbox has handled already are acked as duplicates, alone, and left out of the list; the keys of items the
 * handler did not ack (a retry, a dead letter, an undecodable body) are taken out before the commit, so their next
 * delivery is handled again; a failure rolls everything back. The batch's outputs, when it acked any item, become one
 * group of the outbox in the same transaction, published after the commit by {@link BatchOutputs}.
 */
public final class BatchInboxCheck implements Handling<DeliveryBatch> {

    private final Inbox inbox;
    private final String consumer;
    private final BatchReading reading;
    private final Handling<DeliveryBatch> next;

    public BatchInboxCheck(Inbox inbox, String consumer, BatchReading reading, Handling<DeliveryBatch> next) {
        this.inbox = inbox;
        this.consumer = consumer;
        this.reading = reading;
        this.next = next;
    }

    @Override
    public Object run(DeliveryBatch batch) {
        try {
            return inbox.runBatch(consumer, batch.pending(), item -> batch.alone(item, Verdict.DUPLICATE),
                    fresh -> handle(batch));
        } catch (Throwable t) {
            // Rolled back, the outbox rows with it: nothing to publish. Every item in the list (or, where the handler was
            // never called, every item not found in the inbox) fails.
            batch.committedOutputs(null);
            return Verdict.thrown(t);
        }
    }

    private Inbox.Handled handle(DeliveryBatch batch) {
        Object result = next.run(batch);
        List<InboundDelivery> handled = batch.handled();
        Object[] perItem = reading.perItem(result, handled.size(), false);
        List<InboundDelivery> acked = new ArrayList<>(handled.size());
        for (int i = 0; i < perItem.length; i++) {
            if (BatchReading.acks(perItem, i)) {
                acked.add(handled.get(i));
            }
        }
        if (!acked.isEmpty()) {
            List<Output> outputs = batch.takeOutputs();
            if (!outputs.isEmpty()) {
                batch.committedOutputs(new OutboxGroup(inbox, inbox.toOutbox(outputs), outputs));
            }
        }
        return new Inbox.Handled(result, acked);
    }
}
