package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import org.jboss.logging.Logger;

/**
 * A confirmed copy or dead letter: its original is acked when the broker confirms it, requeued (after a pause) when
 * the broker does not take it, and left to the broker when the delivery's own channel closed with it.
 */
final class CopyInFlight implements InFlightPublish {

    private static final Logger LOG = Logger.getLogger(CopyInFlight.class);

    private final Unsettled original;
    private final String queue;
    /** Whether the copy went on a channel of its own (then the original is still the subscriber's when it closes). */
    private final boolean ownChannel;
    private final CopyPublisher.CopyResult outcomes;
    private final MissingQueues missing;
    /** How long the original waits before it goes back to its queue, for the log. */
    private final java.time.Duration refusedPause;

    CopyInFlight(Unsettled original, String queue, boolean ownChannel, CopyPublisher.CopyResult outcomes,
            MissingQueues missing, java.time.Duration refusedPause) {
        this.original = original;
        this.queue = queue;
        this.ownChannel = ownChannel;
        this.outcomes = outcomes;
        this.missing = missing;
        this.refusedPause = refusedPause;
    }

    @Override
    public void confirmed() {
        outcomes.confirmed(original);
    }

    @Override
    public void nacked() {
        LOG.errorf("RabbitMQ nacked the copy of %s to queue '%s': requeueing the original", original.describe(), queue);
        outcomes.refused(original);
    }

    @Override
    public void returned(String replyText) {
        missing.log(queue, "the original " + original.describe() + " is requeued in " + refusedPause);
        outcomes.refused(original);
    }

    @Override
    public void timedOut(long timeoutMillis) {
        LOG.errorf("RabbitMQ did not confirm the copy of %s to queue '%s' within %d ms: requeueing the original",
                original.describe(), queue, timeoutMillis);
        outcomes.refused(original);
    }

    @Override
    public void closed(boolean refusedForWhatItIs, String reason) {
        if (refusedForWhatItIs) {
            outcomes.refusedForWhatItIs(original, reason);
        }
        // On the delivery's channel the broker requeues the original with it; on the copies' own channel the original
        // is still the subscriber's: requeued after a pause (its copy may have arrived: a duplicate, never a loss).
        if (ownChannel) {
            outcomes.refused(original);
        } else {
            outcomes.abandoned(original);
        }
    }
}
