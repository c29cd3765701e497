package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The inbox of {@code inbox = true} subscriptions, as the delivery chain sees it: runs a delivery's handling in a
 * database transaction whose first statement records the message's key. Implemented where JTA and JDBC are
 * ({@code runtime.inbox}), a bean only in applications with an inbox subscription, so nothing here loads their classes.
 */
public interface Inbox {

    /** What {@link #run} returns for a message whose key the inbox has already: its effects are in. */
    Object DUPLICATE = new Object() {
        @Override
        public String toString() {
            return "duplicate";
        }
    };

    /**
     * @param consumer whose inbox: the subscription's queue
     * @param handling the handler's side of the delivery (decode, call); never throws
     * @param acks whether what the handling returned is an ack, the one result that commits
     * @return what the handling returned, or {@link #DUPLICATE}
     * @throws RuntimeException when the inbox cannot do its part (the database refused, the commit failed): a failure
     *         of the delivery, named
     */
    Object run(String consumer, InboundDelivery delivery, Function<InboundDelivery, Object> handling,
            Predicate<Object> acks);
}
