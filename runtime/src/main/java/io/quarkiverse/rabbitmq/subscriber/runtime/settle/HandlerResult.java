package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import io.quarkiverse.rabbitmq.subscriber.Outcome;

/** What came of giving a delivery to its handler. */
public sealed interface HandlerResult {

    /** The handler's outcome; the constant outcomes share one result, so a delivery allocates none for them. */
    static Handled handled(Outcome outcome) {
        return switch (outcome.kind()) {
            case ACK -> Handled.ACK;
            case RETRY -> Handled.RETRY;
            case DROP -> Handled.DROP;
            case RETRY_AFTER, DEAD_LETTER -> new Handled(outcome);
        };
    }

    /** The handler returned an outcome ({@code void} and {@code Uni<Void>} handlers: ack). */
    record Handled(Outcome outcome) implements HandlerResult {
        static final Handled ACK = new Handled(Outcome.ack());
        static final Handled RETRY = new Handled(Outcome.retry());
        static final Handled DROP = new Handled(Outcome.drop());
    }

    /**
     * The handler threw, its {@code Uni}/{@code CompletionStage} failed, or it returned a null outcome.
     *
     * @param deadLetterNow the failure is of a type the subscription dead-letters at once ({@code deadLetterOn})
     */
    record Failed(FailureInfo failure, boolean deadLetterNow) implements HandlerResult {

        public Failed(FailureInfo failure) {
            this(failure, false);
        }
    }

    /**
     * The inbox has the message's key already: its effects are in, the handler was not called, and the delivery is
     * acked.
     */
    record Duplicate() implements HandlerResult {
        public static final Duplicate INSTANCE = new Duplicate();
    }

    /** The body could not be decoded into the payload type: the handler never ran. */
    record Undecodable(FailureInfo failure) implements HandlerResult {
    }
}
