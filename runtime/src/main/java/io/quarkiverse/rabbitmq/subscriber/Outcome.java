package io.quarkiverse.rabbitmq.subscriber;

/**
 * What a handler wants done with the delivery it was given. The runtime turns it into exactly one AMQP frame:
 * <ul>
 * <li>{@link #ack()}: {@code basic.ack}, the message leaves the queue;</li>
 * <li>{@link #retry()}: {@code basic.reject} with requeue, the message goes back to the queue and is delivered again
 * with {@code redelivered=true};</li>
 * <li>{@link #drop()}: {@code basic.reject} without requeue, the message leaves the queue, or goes to the queue's
 * dead-letter exchange where it has one.</li>
 * </ul>
 */
public final class Outcome {

    /** The kinds of outcome, for code that switches on one. */
    public enum Kind {
        ACK,
        RETRY,
        DROP
    }

    private static final Outcome ACK = new Outcome(Kind.ACK);
    private static final Outcome RETRY = new Outcome(Kind.RETRY);
    private static final Outcome DROP = new Outcome(Kind.DROP);

    private final Kind kind;

    private Outcome(Kind kind) {
        this.kind = kind;
    }

    /** The message was handled: remove it from the queue. */
    public static Outcome ack() {
        return ACK;
    }

    /** The message could not be handled now: deliver it again. */
    public static Outcome retry() {
        return RETRY;
    }

    /** The message will never be handled: remove it (or dead-letter it through the queue's own route). */
    public static Outcome drop() {
        return DROP;
    }

    public Kind kind() {
        return kind;
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase();
    }
}
