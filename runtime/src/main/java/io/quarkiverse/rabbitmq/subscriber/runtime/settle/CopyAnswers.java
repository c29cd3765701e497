package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.time.Duration;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.vertx.core.Context;

/** What becomes of an original once the broker answered for its copy (or could not). */
final class CopyAnswers implements CopyPublisher.CopyResult {

    private final Acknowledgements acks;
    private final AsReceived asReceived;
    private final Clock clock;
    private final Context eventLoop;
    /** How long a delivery whose copy could not be confirmed waits before it goes back to its queue. */
    private final Duration refusedPause;

    CopyAnswers(Acknowledgements acks, AsReceived asReceived, Clock clock, Context eventLoop, Duration refusedPause) {
        this.acks = acks;
        this.asReceived = asReceived;
        this.clock = clock;
        this.eventLoop = eventLoop;
        this.refusedPause = refusedPause;
    }

    @Override
    public void confirmed(Unsettled original) {
        acks.ack(original);
    }

    @Override
    public void refused(Unsettled original) {
        // Requeued after a pause: an immediate redelivery would only be refused the same way (CopyPolicy.refusedPause).
        clock.schedule(refusedPause, () -> eventLoop.runOnContext(ignored -> acks.reject(original, true)));
    }

    @Override
    public void refusedForWhatItIs(Unsettled original, String reason) {
        asReceived.refusedForWhatItIs(original, reason);
    }

    @Override
    public void abandoned(Unsettled original) {
        // The broker requeues it with the channel: it leaves the window, nothing is sent.
        acks.leftWithTheChannel(original);
    }
}
