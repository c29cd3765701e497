package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/**
 * The inbox of {@code inbox = true} subscriptions, as the delivery chain sees it: runs a delivery's handling in a
 * database transaction whose first statement records the message's key. Implemented where JTA and JDBC are
 * ({@code runtime.inbox}), a bean only in applications with an inbox subscription, so nothing here loads their classes.
 */
public interface Inbox {

    /**
     * @param consumer whose inbox: the subscription's queue
     * @param handling the handler's side of the delivery (decode, call); never throws
     * @param acks whether what the handling returned is an ack, the one result that commits
     * @return what the handling returned, or {@link Verdict#DUPLICATE}: the key is there already, its effects are in
     * @throws RuntimeException when the inbox cannot do its part (the database refused, the commit failed): a failure
     *         of the delivery, named
     */
    Object run(String consumer, InboundDelivery delivery, Function<InboundDelivery, Object> handling,
            Predicate<Object> acks);

    /**
     * A batch in one transaction ({@code @Batch} with {@code inbox = true}): each item's key recorded first (an item
     * whose key is there already, or twice in the batch, is told to {@code duplicate} and left out), then the handling
     * runs with the others; the keys of the items it did not ack are taken out again and the transaction commits,
     * unless it acked none, which rolls everything back.
     *
     * @param handling the handler's side of the batch with the items not in the inbox; never throws
     * @return what the handling returned
     * @throws RuntimeException when the inbox cannot do its part: a failure of every item, named
     */
    Object runBatch(String consumer, List<InboundDelivery> items, java.util.function.Consumer<InboundDelivery> duplicate,
            Function<List<InboundDelivery>, Handled> handling);

    /**
     * What a batch's handling came to, for its transaction.
     *
     * @param result what the handling returned
     * @param acked the items whose effects the transaction keeps; none rolls it back
     */
    record Handled(Object result, List<InboundDelivery> acked) {
    }

    /**
     * Writes an acked handler's outputs as a group of rows of the outbox, in the transaction {@link #run} opened (call
     * it from the handling): they are committed with the handler's effects, or not at all.
     *
     * @return the group's id
     */
    String toOutbox(List<Output> outputs);

    /**
     * An inbox subscription's share of the inbox datasource's pool: {@code (jdbc.max-size - 2) / } the number of inbox
     * subscriptions, at least 1 (two connections stay for the outbox's relay and deletes). A subscription without a
     * {@code concurrency} of its own runs at most that many handlers, so that together they never ask the pool for
     * more than it has and load waits in their gates instead of failing on the pool's acquisition timeout. 0 when
     * unknown.
     */
    int connections();

    /**
     * A group whose outputs RabbitMQ confirmed: its rows are deleted soon after, with other groups, in a transaction of
     * their own on a worker thread. Returns at once: nobody waits for the delete (a row it misses is only published
     * again by the relay).
     */
    void published(String group);
}
