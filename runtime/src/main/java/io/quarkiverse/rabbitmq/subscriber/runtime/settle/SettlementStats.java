package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what the settlers sent, and on which thread. Settlement belongs on the thread of the subscriber's own event
 * loop (the one its channel's frames and its ack window live on); the other counter exists so tests and operators can
 * see that it stays at zero, another event loop included.
 */
public final class SettlementStats {

    private final LongAdder acked = new LongAdder();
    private final LongAdder requeued = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder delayed = new LongAdder();
    private final LongAdder onSubscriberLoop = new LongAdder();
    private final LongAdder elsewhere = new LongAdder();

    private final LongAdder ackFrames = new LongAdder();

    private final LongAdder copied = new LongAdder();
    private final LongAdder deadLettered = new LongAdder();

    void record(Settlement settlement, boolean onOwnLoop) {
        if (settlement instanceof Settlement.Reject reject) {
            (reject.requeue() ? requeued : rejected).increment();
        } else if (settlement instanceof Settlement.Republish republish) {
            if (!republish.delay().isZero()) {
                delayed.increment();
            } else if (republish.target() == Settlement.Target.DEAD_LETTER) {
                deadLettered.increment();
            } else {
                copied.increment();
            }
        } else {
            acked.increment();
        }
        (onOwnLoop ? onSubscriberLoop : elsewhere).increment();
    }

    public long acked() {
        return acked.sum();
    }

    void ackFrameSent() {
        ackFrames.increment();
    }

    /** {@code basic.ack} frames sent: with {@link #acked()}, how many acks one frame carries (the benchmarks print it). */
    public long ackFrames() {
        return ackFrames.sum();
    }

    public long requeued() {
        return requeued.sum();
    }

    public long rejected() {
        return rejected.sum();
    }

    /** Deliveries replaced by a copy published back to their queue at once (a retry under a cap). */
    public long copied() {
        return copied.sum();
    }

    /** Deliveries published to their dead-letter queue by the runtime. */
    public long deadLettered() {
        return deadLettered.sum();
    }

    /** Deliveries acked with a delayed copy to come ({@code retryAfter}). */
    public long delayed() {
        return delayed.sum();
    }

    /** Settlements made on the thread of the delivery's own subscriber event loop. */
    public long settledOnSubscriberLoop() {
        return onSubscriberLoop.sum();
    }

    /** Settlements made on any other thread: a worker, a virtual thread, another subscriber's event loop. */
    public long settledElsewhere() {
        return elsewhere.sum();
    }
}
