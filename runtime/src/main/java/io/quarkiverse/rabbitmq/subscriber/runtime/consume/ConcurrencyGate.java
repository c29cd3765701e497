package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.ArrayDeque;

import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;
import io.vertx.core.Context;

/**
 * {@code @Subscriber(concurrency = n)}: at most n deliveries in the handler at once; the others wait, in arrival
 * order, until one settles. Only in the chain of a subscription with a bound (without one, every delivery the prefetch
 * lets in starts at once). Event loop only.
 */
public final class ConcurrencyGate implements DeliveryStage {

    private final int concurrency;
    private DeliveryStage start;
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    /** Deliveries started and not settled. */
    private int running;
    /**
     * Told of the deliveries waiting here while a place is held for the runtime's clock (a partition's retry in place):
     * they wait for the clock too, as the in-process broker's idle wait must know. Null otherwise.
     */
    private InFlight clockHolds;
    private boolean startingWaiting;

    private record Waiting(Context context, InboundDelivery delivery) {
    }

    /** @param start runs a delivery let through (it is counted as running by then) */
    public ConcurrencyGate(int concurrency, DeliveryStage start) {
        this.concurrency = concurrency;
        this.start = start;
    }

    /** A gate whose next stage is given by {@link #leadsTo}: the stages after it release its places. */
    public ConcurrencyGate(int concurrency) {
        this(concurrency, null);
    }

    /** Where the deliveries it lets through go; set once, before the first delivery. */
    public void leadsTo(DeliveryStage next) {
        this.start = next;
    }

    @Override
    public void pass(Context context, InboundDelivery delivery) {
        arrived(context, delivery);
    }

    /** A delivery arrived: it starts now, or waits for a place. */
    public void arrived(Context context, InboundDelivery delivery) {
        if (concurrency > 0 && running >= concurrency) {
            waiting.add(new Waiting(context, delivery));
            if (clockHolds != null) {
                clockHolds.heldForClock(1);
            }
            return;
        }
        running++;
        start.pass(context, delivery);
    }

    /**
     * A delivery settled (the chain's release): waiting ones may start. A delivery started here may settle at once and come
     * back here: that
     * nested call only counts, and the loop below goes on, so a long line of waiting deliveries never deepens the
     * stack.
     */
    public void released() {
        running--;
        if (startingWaiting) {
            return;
        }
        startingWaiting = true;
        try {
            Waiting next;
            while (running < concurrency && (next = waiting.poll()) != null) {
                if (clockHolds != null) {
                    clockHolds.heldForClock(-1);
                }
                running++;
                start.pass(next.context(), next.delivery());
            }
        } finally {
            startingWaiting = false;
        }
    }

    /** The subscriber stops taking deliveries: the stage after it may hold some (a partition's retries in place). */
    @Override
    public void draining() {
        start.draining();
    }

    /**
     * Whether a place is held until the runtime's clock moves (a retry in place waits): from now on, and until told
     * otherwise, the deliveries waiting here count as held for the clock in {@code inFlight}.
     */
    public void heldForClock(boolean held, InFlight inFlight) {
        if (held == (clockHolds != null)) {
            return;
        }
        inFlight.heldForClock(held ? waiting.size() : -waiting.size());
        clockHolds = held ? inFlight : null;
    }

    /**
     * Lets go of the deliveries waiting here, each told to {@code abandon}: their channel closes and RabbitMQ gives them
     * back, first of the queue (a partition that stops taking deliveries).
     */
    public void abandonWaiting(java.util.function.Consumer<InboundDelivery> abandon) {
        Waiting next;
        while ((next = waiting.poll()) != null) {
            if (clockHolds != null) {
                clockHolds.heldForClock(-1);
            }
            abandon.accept(next.delivery());
        }
    }

    int running() {
        return running;
    }

    public int waiting() {
        return waiting.size();
    }
}
