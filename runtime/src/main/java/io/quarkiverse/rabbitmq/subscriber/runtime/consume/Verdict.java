package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.HandlerResult;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;

/**
 * What a handling came to, read and decided: the last stages report it, publish its outputs and send its settlement.
 *
 * @param result what the handler's result means; null when the handler never ran (the kill switch was tripped)
 * @param settlement what the settlement plan decided for it
 * @param cause the exception thrown (or the body's decoding failure), null where there is none
 */
record Verdict(HandlerResult result, Settlement settlement, Throwable cause) {

    /** A delivery whose handler never ran: back to the head of its queue, unhandled and uncounted. */
    static final Verdict NOT_RUN = new Verdict(null, Settlement.KEEP, null);

    /** The common case, shared as the constant results are: a delivery acked by its handler allocates no verdict. */
    static final Verdict ACKED = new Verdict(HandlerResult.handled(io.quarkiverse.rabbitmq.subscriber.Outcome.ack()),
            Settlement.ACK, null);

    /** A message the inbox has handled already: acked, its handler not called. */
    static final Verdict DUPLICATE = new Verdict(HandlerResult.Duplicate.INSTANCE, Settlement.ACK, null);

    /** A verdict of a result without exception. */
    static Verdict of(HandlerResult result, Settlement settlement) {
        return result == ACKED.result && settlement == Settlement.ACK ? ACKED : new Verdict(result, settlement, null);
    }
}
