package io.quarkiverse.rabbitmq.subscriber;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a batch handler wants done with each item of its list: {@link #ack()} acks every item; each call names one item
 * by its index in the list and settles it as that single {@link Outcome} would be. Immutable: each call returns a new
 * outcome, so {@code BatchOutcome.ack().retry(3).deadLetter(5, "no such account")} reads as it settles.
 * <p>
 * An index outside the list fails the whole batch (a bug of the handler: every item is retried as after a throw).
 */
public final class BatchOutcome {

    private static final BatchOutcome ACK = new BatchOutcome(Map.of());

    /** The items not acked, by index. */
    private final Map<Integer, Outcome> exceptions;

    private BatchOutcome(Map<Integer, Outcome> exceptions) {
        this.exceptions = exceptions;
    }

    /** Every item acked, unless a later call says otherwise for one. */
    public static BatchOutcome ack() {
        return ACK;
    }

    /** Item {@code index} settled as {@code outcome} (the others as before). */
    public BatchOutcome with(int index, Outcome outcome) {
        if (index < 0) {
            throw new IndexOutOfBoundsException("A batch's items are numbered from 0: " + index);
        }
        if (outcome == null) {
            throw new NullPointerException("The outcome of item " + index + " is null");
        }
        TreeMap<Integer, Outcome> changed = new TreeMap<>(exceptions);
        if (outcome.kind() == Outcome.Kind.ACK) {
            changed.remove(index);
        } else {
            changed.put(index, outcome);
        }
        return new BatchOutcome(Collections.unmodifiableMap(changed));
    }

    /** Item {@code index} delivered again now, as {@link Outcome#retry()}. */
    public BatchOutcome retry(int index) {
        return with(index, Outcome.retry());
    }

    /** Item {@code index} dropped, as {@link Outcome#drop()}. */
    public BatchOutcome drop(int index) {
        return with(index, Outcome.drop());
    }

    /** Item {@code index} delivered again after {@code delay}, as {@link Outcome#retryAfter(Duration)}. */
    public BatchOutcome retryAfter(int index, Duration delay) {
        return with(index, Outcome.retryAfter(delay));
    }

    /** Item {@code index} to the dead-letter queue now, as {@link Outcome#deadLetter(String)}. */
    public BatchOutcome deadLetter(int index, String reason) {
        return with(index, Outcome.deadLetter(reason));
    }

    /** What item {@code index} is settled with. */
    public Outcome outcome(int index) {
        return exceptions.getOrDefault(index, Outcome.ack());
    }

    /** The items not acked, by index, in order. */
    public Map<Integer, Outcome> notAcked() {
        return exceptions;
    }

    @Override
    public String toString() {
        return exceptions.isEmpty() ? "BatchOutcome.ack()" : "BatchOutcome.ack() but " + exceptions;
    }
}
