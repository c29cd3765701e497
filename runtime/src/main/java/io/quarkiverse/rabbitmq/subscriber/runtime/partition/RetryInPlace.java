package io.quarkiverse.rabbitmq.subscriber.runtime.partition;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.ConcurrencyGate;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.DeliveryStage;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.VerdictStage;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * A partition's retries ({@code @Subscriber(partitions)}): a delivery whose settlement is {@link Settlement.Again} is
 * not settled; after its delay on the runtime's clock it goes back to the handler, unsettled all along, while the
 * partition's concurrency gate (one place) keeps the messages behind it waiting. A copy published back, or a requeue
 * while the consumer holds later messages, would let those pass it. Other verdicts go on to be settled.
 * <p>
 * When the subscriber stops taking deliveries (a stop, a pause: a partition's channel closes then) the held deliveries
 * and those waiting behind them are let go unsettled, their timers cancelled: RabbitMQ gives each back, first of its
 * queue, to the partition's next active consumer.
 */
public final class RetryInPlace implements VerdictStage {

    private final Clock clock;
    private final Context eventLoop;
    private final InFlight inFlight;
    private final VerdictStage next;
    /** The partition's gate, of one place: what waits there while a retry waits for the clock waits for it too. */
    private final ConcurrencyGate gate;
    /** Told of the deliveries let go when the subscriber stops taking them: they leave with their channel. */
    private final Settlements settlements;
    private DeliveryStage invoke;
    /** The deliveries waiting for their next attempt, with their timers. Event loop only. */
    private final java.util.Map<InboundDelivery, Clock.Timer> held = new java.util.IdentityHashMap<>();
    private boolean stopped;

    /**
     * @param inFlight told of the deliveries held for the clock (the in-process broker's idle wait counts them)
     * @param next where every other verdict goes: the settling
     */
    public RetryInPlace(Clock clock, Context eventLoop, InFlight inFlight, ConcurrencyGate gate, Settlements settlements,
            VerdictStage next) {
        this.settlements = settlements;
        this.gate = gate;
        this.clock = clock;
        this.eventLoop = eventLoop;
        this.inFlight = inFlight;
        this.next = next;
    }

    /**
     * The stage that calls the handler, where a held delivery goes again; set once, before the first delivery. Returns
     * it as the gate should call it: told when the subscriber stops taking deliveries.
     */
    public DeliveryStage around(DeliveryStage invoke) {
        this.invoke = invoke;
        return new DeliveryStage() {
            @Override
            public void pass(Context context, InboundDelivery delivery) {
                invoke.pass(context, delivery);
            }

            @Override
            public void draining() {
                stop();
            }
        };
    }

    /**
     * The subscriber stops taking deliveries (its channel closes): the held retries and the deliveries waiting behind
     * them in the gate are let go unsettled, so that none is handled here after RabbitMQ gave it to another instance.
     */
    private void stop() {
        stopped = true;
        held.forEach((delivery, timer) -> {
            if (timer != null && timer.cancel()) {
                inFlight.heldForClock(-1);
            }
            settlements.abandoned(delivery);
        });
        held.clear();
        gate.heldForClock(false, inFlight);
        gate.abandonWaiting(settlements::abandoned);
    }

    @Override
    public void pass(InboundDelivery delivery, Verdict verdict) {
        if (!(verdict.settlement() instanceof Settlement.Again again)) {
            next.pass(delivery, verdict);
            return;
        }
        if (stopped) {
            // Left unsettled, as the others stop() let go: the broker gives it back when the channel closes.
            settlements.abandoned(delivery);
            return;
        }
        Context current = Vertx.currentContext();
        Context context = current != null ? current : eventLoop;
        delivery.attemptAgain();
        if (again.delay().isZero()) {
            // Through the loop's queue, not a call from here: a handler that always fails must not starve the loop.
            held.put(delivery, null);
            context.runOnContext(ignored -> attempt(context, delivery));
            return;
        }
        // The timer first, then the count of what waits for the clock: the in-process broker is idle once every
        // unsettled delivery is counted as held for the clock, and a test's advance must then find the timer set
        // (counted first, an advance could pass before it was set, and the retry would wait forever). The timer only
        // fires on a later advance (or, on the wall clock, through the loop, after this returns).
        held.put(delivery, clock.schedule(again.delay(), () -> {
            inFlight.heldForClock(-1);
            context.runOnContext(ignored -> attempt(context, delivery));
        }));
        inFlight.heldForClock(1);
        gate.heldForClock(true, inFlight);
    }

    private void attempt(Context context, InboundDelivery delivery) {
        if (stopped || !held.containsKey(delivery)) {
            return;
        }
        held.remove(delivery);
        gate.heldForClock(false, inFlight);
        invoke.pass(context, delivery);
    }
}
