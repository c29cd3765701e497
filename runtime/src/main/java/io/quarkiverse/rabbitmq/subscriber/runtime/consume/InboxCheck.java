package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.HandlerResult;

/**
 * The inbox's step of the handling, in the chains of {@code inbox = true} subscriptions only, after the kill switch (a
 * message that is not run opens no transaction): the handling runs in the inbox's transaction ({@link Inbox}), which
 * commits only when the handler acks. A message already handled comes back as {@link Inbox#DUPLICATE}; a failure of
 * the inbox itself (the database) is a failure of the delivery, settled as any other.
 */
final class InboxCheck implements Handling {

    private final Inbox inbox;
    private final String consumer;
    private final ResultReading reading;
    private final Handling next;

    InboxCheck(Inbox inbox, String consumer, ResultReading reading, Handling next) {
        this.inbox = inbox;
        this.consumer = consumer;
        this.reading = reading;
        this.next = next;
    }

    @Override
    public Object run(InboundDelivery delivery) {
        try {
            return inbox.run(consumer, delivery, next::run, this::acks);
        } catch (Throwable t) {
            return new HandlerInvocation.Failed(t);
        }
    }

    /** Read as settlement reads it: an {@code Outcome.ack()}, or a {@code void} handler that returned. */
    private boolean acks(Object result) {
        return reading.read(result, false) instanceof HandlerResult.Handled handled
                && handled.outcome().kind() == Outcome.Kind.ACK;
    }
}
