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

    void record(io.quarkiverse.rabbitmq.subscriber.Outcome.Kind kind, boolean onOwnLoop) {
        switch (kind) {
            case ACK -> acked.increment();
            case RETRY -> requeued.increment();
            case DROP -> rejected.increment();
            case RETRY_AFTER -> delayed.increment();
        }
        (onOwnLoop ? onSubscriberLoop : elsewhere).increment();
    }

    public long acked() {
        return acked.sum();
    }

    public long requeued() {
        return requeued.sum();
    }

    public long rejected() {
        return rejected.sum();
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
