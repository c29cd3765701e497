package io.quarkiverse.rabbitmq.subscriber.runtime.batch;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.DeliveryContexts;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.DeliveryStage;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;
import io.vertx.core.Context;

/**
 * {@code @Subscriber(batch = @Batch(size, maxWait))}: gathers a batch handler's deliveries on the subscriber's event
 * loop, in arrival order, into batches that close at {@code size} deliveries or {@code maxWait} after their first,
 * whichever comes first (on the runtime's clock, so the in-process broker's virtual time closes them in tests). A
 * closed batch starts at once, or, with a bound ({@code concurrency}, an inbox's share of the pool), when fewer than
 * that many batches are in their handler; it counts as one place until its results are back ({@link #finished}). When
 * the subscriber stops taking deliveries the open batch closes at once ({@link #draining}). Event loop only.
 */
public final class BatchCollector implements DeliveryStage {

    private final int size;
    private final Duration maxWait;
    private final Clock clock;
    private final Context eventLoop;
    /** Batches in the handler at once; 0: no bound (the prefetch bounds them). */
    private final int limit;
    /** Told how many deliveries wait in the open batch for the clock (the in-process broker counts them as quiet). */
    private final InFlight inFlight;
    private BatchStage start;
    private List<InboundDelivery> open;
    /**
     * How many of the open batch's deliveries are counted as held for the clock; -1 once its timer fired or it closed
     * (the timer's thread and the loop both end the count, whichever comes first, so that the in-process broker never
     * takes a batch the clock has released for a quiet one).
     */
    private AtomicInteger held;
    private Clock.Timer timer;
    private final ArrayDeque<List<InboundDelivery>> ready = new ArrayDeque<>();
    private int running;
    private boolean starting;

    public BatchCollector(int size, long maxWaitMillis, int limit, Clock clock, Context eventLoop, InFlight inFlight) {
        this.inFlight = inFlight;
        this.size = size;
        this.maxWait = Duration.ofMillis(maxWaitMillis);
        this.limit = limit;
        this.clock = clock;
        this.eventLoop = eventLoop;
    }

    /** Where closed batches go; set once, before the first delivery. */
    public void leadsTo(BatchStage start) {
        this.start = start;
    }

    @Override
    public void pass(Context context, InboundDelivery delivery) {
        if (open == null) {
            open = new ArrayList<>(size);
            AtomicInteger counted = new AtomicInteger();
            held = counted;
            timer = clock.schedule(maxWait, () -> {
                release(counted);
                eventLoop.runOnContext(ignored -> timedOut(counted));
            });
        }
        open.add(delivery);
        if (held.getAndUpdate(count -> count < 0 ? count : count + 1) >= 0) {
            inFlight.heldForClock(1);
        }
        if (open.size() >= size) {
            timer.cancel();
            close();
        }
    }

    /** Its deliveries are no longer held for the clock. */
    private void release(AtomicInteger counted) {
        int count = counted.getAndSet(-1);
        if (count > 0) {
            inFlight.heldForClock(-count);
        }
    }

    /** The subscriber stops taking deliveries: the open batch goes to its handler now, without waiting. */
    @Override
    public void draining() {
        if (open != null) {
            timer.cancel();
            close();
        }
    }

    private void timedOut(AtomicInteger counted) {
        if (open != null && held == counted) {
            close();
        }
    }

    private void close() {
        release(held);
        ready.add(open);
        open = null;
        startReady();
    }

    /** A batch's results are back (its items are settling): the next batch may start. */
    public void finished() {
        running--;
        startReady();
    }

    /**
     * Starts the ready batches the bound allows. A batch started here may finish at once (an event-loop handler) and
     * come back here: that nested call only counts, and the loop below goes on, so the stack never deepens.
     */
    private void startReady() {
        if (starting) {
            return;
        }
        starting = true;
        try {
            List<InboundDelivery> next;
            while ((limit == 0 || running < limit) && (next = ready.poll()) != null) {
                running++;
                start.pass(new DeliveryBatch(DeliveryContexts.newContext(eventLoop), next));
            }
        } finally {
            starting = false;
        }
    }

    int running() {
        return running;
    }

    int waiting() {
        return ready.size();
    }
}
