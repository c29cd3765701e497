package io.quarkiverse.rabbitmq.subscriber;

import java.time.Duration;

/**
 * What a handler wants done with the delivery it was given. What the runtime sends depends on the queue: a classic
 * queue without a cap, a classic queue under a cap ({@code maxAttempts}), or a quorum queue (the table is on the
 * "Retries and dead letters" page):
 * <ul>
 * <li>{@link #ack()}: {@code basic.ack} everywhere, the message leaves the queue;</li>
 * <li>{@link #retry()}: on a classic queue without a cap and on a quorum queue, {@code basic.reject} with requeue, the
 * message goes back to the queue and is delivered again with {@code redelivered=true} (a quorum queue counts it, and
 * dead-letters it at its {@code x-delivery-limit}; a copy that came back from a {@code retryAfter} and reaches the cap
 * is published to the dead-letter queue by the runtime instead). On a classic queue under a cap, a copy with the
 * retry-count header raised by one is published to the queue, then the delivery is acknowledged; at the cap the
 * message is published to the dead-letter queue instead;</li>
 * <li>{@link #drop()}: {@code basic.reject} without requeue everywhere, the message leaves the queue, or goes to the
 * queue's dead-letter exchange where it has one (never to {@code deadLetter} on a classic queue).</li>
 * <li>{@link #retryAfter(Duration)}: the delivery is acknowledged and a copy of the message comes back to the queue
 * once the delay has passed. The copy carries the retry-count header raised by one, and no {@code x-death}. With the
 * default delay strategy the service holds the copy: a crash during the delay loses it, a graceful stop publishes it
 * at once. Under a cap the copy counts as a delivery: at the cap the dead letter is published instead.</li>
 * <li>{@link #deadLetter(String)}: to the dead-letter queue now, whatever attempts remain: on a classic queue under a
 * cap the runtime publishes it there with the {@code x-dead-letter-reason} header; on a quorum queue with a dead-letter
 * route, {@code basic.reject} without requeue, which the server dead-letters (reason {@code rejected}). Without a
 * dead-letter queue it is a {@code drop}, with one ERROR.</li>
 * </ul>
 */
public final class Outcome {

    /** The kinds of outcome, for code that switches on one. */
    public enum Kind {
        ACK,
        RETRY,
        DROP,
        RETRY_AFTER,
        DEAD_LETTER
    }

    /** The header a runtime dead letter of {@link #deadLetter(String)} carries its reason in. */
    public static final String DEAD_LETTER_REASON_HEADER = "x-dead-letter-reason";

    private static final Outcome ACK = new Outcome(Kind.ACK, Duration.ZERO);
    private static final Outcome RETRY = new Outcome(Kind.RETRY, Duration.ZERO);
    private static final Outcome DROP = new Outcome(Kind.DROP, Duration.ZERO);

    private final Kind kind;
    private final Duration delay;
    private final String reason;

    private Outcome(Kind kind, Duration delay) {
        this(kind, delay, null);
    }

    private Outcome(Kind kind, Duration delay, String reason) {
        this.kind = kind;
        this.delay = delay;
        this.reason = reason;
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

    /** The message should come back once {@code delay} has passed; not before. */
    public static Outcome retryAfter(Duration delay) {
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("retryAfter needs a delay of zero or more, not " + delay);
        }
        return new Outcome(Kind.RETRY_AFTER, delay);
    }

    /**
     * The message can never be handled, and someone should look at it: to the dead-letter queue now, whatever attempts
     * remain, with {@code reason} (the {@code x-dead-letter-reason} header of a runtime dead letter).
     */
    public static Outcome deadLetter(String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("deadLetter needs a reason: it is what the dead letter says");
        }
        return new Outcome(Kind.DEAD_LETTER, Duration.ZERO, reason);
    }

    public Kind kind() {
        return kind;
    }

    /** For {@link Kind#RETRY_AFTER}: how long the message waits. {@link Duration#ZERO} for the others. */
    public Duration delay() {
        return delay;
    }

    /** For {@link Kind#DEAD_LETTER}: why; null for the others. */
    public String reason() {
        return reason;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case RETRY_AFTER -> "retryAfter(" + delay + ")";
            case DEAD_LETTER -> "deadLetter(" + reason + ")";
            default -> kind.name().toLowerCase();
        };
    }
}
