package io.quarkiverse.rabbitmq.subscriber;

import java.util.List;

/**
 * Looks into dead-letter queues and moves their messages back to the queues they came from. Inject it where an operator
 * action needs it (a REST endpoint, a scheduled job); the Dev UI uses it for its replay button.
 * <p>
 * Both methods block until the broker answered (at most a confirm timeout per message): call them from a worker
 * thread, not an event loop. They run on the publisher's connection, each on a channel of its own.
 */
public interface DeadLetters {

    /** The header a replayed message carries: how many times it was replayed, 1 after the first replay. */
    String REPLAYED_HEADER = "x-replayed";

    /**
     * Why a dead-letter queue's own reader parked a letter: the letters it cannot handle (a body it cannot decode, a
     * failure at its redelivery) go to {@code <dead-letter queue>.parked}, declared beside it, so that one bad letter
     * never stops it reading the others. {@link #peek} and {@link #replay} work on that queue as on any dead-letter
     * queue; a replay sends a parked letter back to the work queue it was first dead-lettered from.
     */
    String PARKED_REASON_HEADER = "x-parked-reason";

    /**
     * What waits in a dead-letter queue, head first, at most {@code max} messages, without taking anything: RabbitMQ
     * has no peek, so each is taken with basic.get and not acknowledged, and closing the channel returns them all to
     * the queue, in their order (RabbitMQ marks them redelivered).
     *
     * @throws IllegalStateException when the queue does not exist or the broker cannot be reached, naming the queue
     */
    List<DeadLetter> peek(String deadLetterQueue, int max);

    /**
     * Moves up to {@code max} messages from a dead-letter queue back to the queue each came from
     * ({@link DeadLetter#sourceQueue()}), head first, and returns how many moved. Each is published to the default
     * exchange, {@code mandatory}, as it is but for its headers: the retry count is removed, so that its next delivery
     * counts as its first, and so are {@link Delivery#EXCEPTION_TYPE_HEADER}, {@link Delivery#EXCEPTION_MESSAGE_HEADER}
     * and RabbitMQ's death headers ({@code x-death}, {@code x-first-death-*}, {@code x-last-death-*}), while
     * {@link #REPLAYED_HEADER} is raised by one. Only once RabbitMQ confirmed the copy is the dead letter acknowledged:
     * a replay cut midway loses nothing, and duplicates at most the message it was moving.
     *
     * @throws IllegalStateException when a message cannot be moved: RabbitMQ nacked or returned its copy (its queue is
     *         gone), did not confirm it in time ({@code quarkus.rabbitmq-subscriber.publisher.confirm-timeout}), or
     *         nothing tells which queue it came from. That message stays in the dead-letter queue, those before it
     *         were moved, and the exception names the queue, the message id and how many moved before it.
     */
    int replay(String deadLetterQueue, int max);
}
