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
}
