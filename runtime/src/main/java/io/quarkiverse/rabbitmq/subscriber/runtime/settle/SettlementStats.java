package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what the settlers sent, and on which kind of thread. Settlement belongs on the subscriber's event loop; the
 * off-loop counter exists so tests and operators can see that it stays at zero.
 */
public final class SettlementStats {

    private final LongAdder acked = new LongAdder();
    private final LongAdder requeued = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder delayed = new LongAdder();
    private final LongAdder onEventLoop = new LongAdder();
    private final LongAdder offEventLoop = new LongAdder();

    void record(io.quarkiverse.rabbitmq.subscriber.Outcome.Kind kind, boolean onLoop) {
        switch (kind) {
            case ACK -> acked.increment();
            case RETRY -> requeued.increment();
            case DROP -> rejected.increment();
            case RETRY_AFTER -> delayed.increment();
        }
        (onLoop ? onEventLoop : offEventLoop).increment();
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

    public long settledOnEventLoop() {
        return onEventLoop.sum();
    }

    public long settledOffEventLoop() {
        return offEventLoop.sum();
    }
}
