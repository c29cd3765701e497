package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.time.Duration;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.vertx.core.Context;

/**
 * What the broker's answer for a copy or dead letter means for its original: acked once confirmed, requeued after a
 * pause when the broker did not take it, left to the broker when the delivery's channel went with it.
 */
final class CopyAnswers {

    private static final Logger LOG = Logger.getLogger(CopyAnswers.class);

    private final Acknowledgements acks;
    private final AsReceived asReceived;
    private final MissingQueues missing;
    private final Clock clock;
    private final Context eventLoop;
    /** How long a delivery whose copy could not be confirmed waits before it goes back to its queue. */
    private final Duration refusedPause;

    CopyAnswers(Acknowledgements acks, AsReceived asReceived, MissingQueues missing, Clock clock, Context eventLoop,
            Duration refusedPause) {
        this.acks = acks;
        this.asReceived = asReceived;
        this.missing = missing;
        this.clock = clock;
        this.eventLoop = eventLoop;
        this.refusedPause = refusedPause;
    }

    /**
     * @param queue where the copy went, for the log
     * @param refusedByClient how the original is settled when the client refused to send its copy
     */
    void answered(Unsettled original, String queue, Runnable refusedByClient, PublishAnswer answer) {
        if (answer.refusal() != null) {
            // Remembered, so the message is not copied again when it comes back; then settled as for any close.
            asReceived.refusedForWhatItIs(original, answer.refusal());
        }
        switch (answer.kind()) {
            case CONFIRMED -> acks.ack(original);
            case NACKED, TIMED_OUT -> {
                LOG.errorf("%s: requeueing the original", answer.why());
                requeueAfterPause(original);
            }
            case RETURNED -> {
                missing.log(queue, "the original " + original.describe() + " is requeued in " + refusedPause);
                requeueAfterPause(original);
            }
            // Nothing was sent and the channel is open: the original is settled some other way, with a frame.
            case REFUSED_BY_CLIENT -> refusedByClient.run();
            // On the copies' own channel the original is still the subscriber's: requeued after a pause (its copy may
            // have arrived: a duplicate, never a loss).
            case CUT -> requeueAfterPause(original);
            // The broker requeues it with the delivery's channel: it leaves the window, nothing is sent.
            case GONE -> acks.leftWithTheChannel(original);
        }
    }

    private void requeueAfterPause(Unsettled original) {
        // An immediate redelivery would only be refused the same way (CopyPolicy.refusedPause).
        clock.schedule(refusedPause, () -> eventLoop.runOnContext(ignored -> acks.reject(original, true)));
    }
}
