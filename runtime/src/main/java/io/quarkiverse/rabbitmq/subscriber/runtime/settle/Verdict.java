package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import io.quarkiverse.rabbitmq.subscriber.Outcome;

/**
 * What one delivery came to: the one value its handling becomes, read once from what the handler returned (or what
 * happened instead), decided once by the {@link SettlementPlan}, and carried by the last stages (outputs, kill switch,
 * report) to the {@link Settler}, which sends its {@link #settlement()} as frames. A batch's items get one each.
 * <p>
 * A verdict is <em>read</em> while its settlement is null (what the handling came to, not yet decided: a thrown
 * exception, an undecodable body, an outcome) and <em>decided</em> once it has one ({@link #decided}). The common
 * verdicts are shared constants: a delivery acked by its handler allocates none.
 *
 * @param kind what the handling came to
 * @param outcome the handler's outcome ({@link Kind#HANDLED}); null otherwise
 * @param failure what failed ({@link Kind#FAILED}, {@link Kind#UNDECODABLE}), as copies and dead letters carry it; null
 *        otherwise
 * @param deadLetterNow a failure of a type the subscription dead-letters at once ({@code deadLetterOn})
 * @param cause the exception thrown, or the body's decoding failure; null where there is none (a null outcome, a wrong
 *        result type: failures without a stack worth a log)
 * @param settlement what the plan decided to send; null while the verdict is only read
 */
public record Verdict(Kind kind, Outcome outcome, FailureInfo failure, boolean deadLetterNow, Throwable cause,
        Settlement settlement) {

    public enum Kind {
        /** The handler returned an outcome ({@code void} and {@code Uni<Void>} handlers: ack). */
        HANDLED,
        /** The handler threw, its {@code Uni}/{@code CompletionStage} failed, it returned a null or foreign value. */
        FAILED,
        /** The body could not be decoded into the payload type: the handler never ran. */
        UNDECODABLE,
        /** The inbox has the message's key already: its effects are in, the handler was not called; acked. */
        DUPLICATE,
        /** The kill switch was tripped as it arrived: back to the head of its queue, unhandled and uncounted. */
        NOT_RUN
    }

    /** A delivery whose handler never ran: back to the head of its queue, unhandled and uncounted. */
    public static final Verdict NOT_RUN = new Verdict(Kind.NOT_RUN, null, null, false, null, Settlement.KEEP);

    /** A message the inbox has handled already: acked, its handler not called. */
    public static final Verdict DUPLICATE = new Verdict(Kind.DUPLICATE, null, null, false, null, Settlement.ACK);

    private static final Verdict READ_ACK = new Verdict(Kind.HANDLED, Outcome.ack(), null, false, null, null);
    private static final Verdict READ_RETRY = new Verdict(Kind.HANDLED, Outcome.retry(), null, false, null, null);
    private static final Verdict READ_DROP = new Verdict(Kind.HANDLED, Outcome.drop(), null, false, null, null);

    /** The common case: an ack, decided. */
    public static final Verdict ACKED = new Verdict(Kind.HANDLED, READ_ACK.outcome, null, false, null, Settlement.ACK);

    /** The handler's outcome, read; the constant outcomes share one verdict. */
    public static Verdict handled(Outcome outcome) {
        return switch (outcome.kind()) {
            case ACK -> READ_ACK;
            case RETRY -> READ_RETRY;
            case DROP -> READ_DROP;
            case RETRY_AFTER, DEAD_LETTER -> new Verdict(Kind.HANDLED, outcome, null, false, null, null);
        };
    }

    /**
     * An exception thrown on the handler's side (by the handler, its {@code Uni}, the request context, the inbox), as
     * the handling returns it; the reading tells whether its type is dead-lettered at once.
     */
    public static Verdict thrown(Throwable cause) {
        return new Verdict(Kind.FAILED, null, FailureInfo.of(cause), false, cause, null);
    }

    /**
     * A failure, read.
     *
     * @param cause the exception, or null where the failure is not one worth its stack (a null outcome, a wrong type)
     */
    public static Verdict failed(FailureInfo failure, boolean deadLetterNow, Throwable cause) {
        return new Verdict(Kind.FAILED, null, failure, deadLetterNow, cause, null);
    }

    /** A body that could not be decoded: the handler never ran. */
    public static Verdict undecodable(Throwable cause) {
        return new Verdict(Kind.UNDECODABLE, null, FailureInfo.of(cause), false, cause, null);
    }

    /** This verdict with what the plan decided; the decided ack is the shared {@link #ACKED}. */
    public Verdict decided(Settlement decided) {
        if (this == READ_ACK && decided == Settlement.ACK) {
            return ACKED;
        }
        return new Verdict(kind, outcome, failure, deadLetterNow, cause, decided);
    }

    /** Whether the plan has decided it (every verdict past the reading is). */
    public boolean isDecided() {
        return settlement != null;
    }

    /** Whether the handler ran and came to an outcome (not a failure). */
    public boolean isHandled() {
        return kind == Kind.HANDLED;
    }

    /** Whether the handler ran and failed. */
    public boolean isFailed() {
        return kind == Kind.FAILED;
    }

    /** Whether it is the handler's ack. */
    public boolean acks() {
        return kind == Kind.HANDLED && outcome.kind() == Outcome.Kind.ACK;
    }
}
