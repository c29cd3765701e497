package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.Handling;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.ResultReading;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/**
 * The inbox's step of the handling, in the chains of {@code inbox = true} subscriptions only, after the kill switch (a
 * message that is not run opens no transaction): the handling runs in the inbox's transaction ({@link Inbox}), which
 * commits only when the handler acks. A message already handled comes back as {@link Verdict#DUPLICATE}; a failure of
 * the inbox itself (the database) is a failure of the delivery, settled as any other. An acked handler's outputs
 * become rows of the outbox in the same transaction, and the delivery keeps them ({@link OutboxGroup}) for
 * {@link OutboxBeforeAck} to publish after the commit.
 */
public final class InboxCheck implements Handling<InboundDelivery> {

    private final Inbox inbox;
    private final String consumer;
    private final ResultReading reading;
    private final Handling<InboundDelivery> next;
    private final boolean takesOutputs;

    public InboxCheck(Inbox inbox, String consumer, ResultReading reading, boolean takesOutputs,
            Handling<InboundDelivery> next) {
        this.takesOutputs = takesOutputs;
        this.inbox = inbox;
        this.consumer = consumer;
        this.reading = reading;
        this.next = next;
    }

    @Override
    public Object run(InboundDelivery delivery) {
        try {
            return inbox.run(consumer, delivery, this::handle, this::acks);
        } catch (Throwable t) {
            // Rolled back, the outbox rows with it: nothing to publish.
            delivery.committedOutputs(null);
            return Verdict.thrown(t);
        }
    }

    /** The handling, then, on an ack, its outputs into the outbox before the transaction commits. */
    private Object handle(InboundDelivery delivery) {
        Object result = next.run(delivery);
        if (takesOutputs && acks(result)) {
            List<Output> outputs = delivery.takeOutputs();
            if (!outputs.isEmpty()) {
                delivery.committedOutputs(new OutboxGroup(inbox, inbox.toOutbox(outputs), outputs));
            }
        }
        return result;
    }

    /** Read as settlement reads it: an {@code Outcome.ack()}, or a {@code void} handler that returned. */
    private boolean acks(Object result) {
        return reading.read(result, false).acks();
    }
}
