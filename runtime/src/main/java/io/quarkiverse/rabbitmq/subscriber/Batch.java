package io.quarkiverse.rabbitmq.subscriber;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Hands the handler a list of messages per call: {@code @Subscriber(value = "readings", batch = @Batch(size = 500,
 * maxWait = "100ms"))} on a method that takes a {@code List<T>} payload (any payload type a single handler takes: a
 * JSON-decoded type, {@code byte[]}, {@code String}, {@code Buffer}, {@code JsonObject}, {@code JsonArray}), optionally a
 * {@code List<Delivery>} (the same items in the same order) and {@code Outputs}, and returns {@link BatchOutcome},
 * {@code Uni<BatchOutcome>}, {@code CompletionStage<BatchOutcome>}, {@code void} or {@code Uni<Void>}.
 * <p>
 * A batch closes when it holds {@link #size()} messages, or {@link #maxWait()} after its first arrived, whichever comes
 * first; the subscription's prefetch is raised to at least {@code size} (the unsettled-bytes bound may still cut it). A
 * message whose body cannot be decoded is settled on its own, as a single handler's would be, and never reaches the
 * list. Each item is settled as its {@link BatchOutcome} says, exactly as the same single {@code Outcome} would be
 * (caps, copies, delays, dead letters, quorum limits, {@code deadLetterOn}); a handler that throws (or a failed
 * {@code Uni}) fails every item. Acks leave as one {@code basic.ack multiple} where the delivery tags allow it.
 * <p>
 * {@code concurrency} counts batches: at most that many handler calls at once (unbounded by default: the prefetch bounds
 * them; an inbox subscription runs its share of the pool). With {@code inbox = true} the whole batch is one
 * transaction: messages already in the inbox are acked and left out of the list, and the keys of items the outcome
 * does not ack are taken out again before the commit. Outputs are per batch: published, each confirmed, once the handler
 * returns, before any item is acked; a failure of the handler drops them.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({})
public @interface Batch {

    /** The most messages in one call; at least 1 (0, the default of {@code @Subscriber}: no batches). */
    int size() default 0;

    /**
     * How long a batch waits for more after its first message, as a duration ({@code "100ms"}, {@code "2s"},
     * {@code "PT1S"}); longer than zero. Measured on the runtime's clock (the in-process broker's virtual one in tests).
     */
    String maxWait() default "100ms";
}
