package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.Queue;

import io.netty.util.internal.PlatformDependent;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * An off-loop handler without a concurrency bound: each delivery goes from the reader thread straight to the
 * handler's thread, without waking the event loop (that wake-up cost about a third of a worker drain); the loop sees
 * the delivery with its result.
 * <p>
 * The loop records the arrival (the delivery's place in the ack window) when it next handles a result, before that
 * result: a delivery's result follows its arrival, and arrivals are recorded in delivery order, so every earlier
 * delivery is in the window, in flight or not, and a multiple ack can never cover one still running.
 */
final class DirectRoute implements DeliveryRoute {

    private final Context eventLoop;
    private final Settlements settlements;
    private final HandlerThreads threads;
    private final Handling<InboundDelivery> handling;
    private final Completions completions;
    /** Deliveries handed to handlers from the reader thread, not yet in the ack window. */
    private final Queue<InboundDelivery> arrivals = PlatformDependent.newMpscQueue();

    DirectRoute(Context eventLoop, Settlements settlements, HandlerThreads threads, Handling<InboundDelivery> handling,
            ResultStage next) {
        this.eventLoop = eventLoop;
        this.settlements = settlements;
        this.threads = threads;
        this.handling = handling;
        // Nothing waits on a result here but its ack (no concurrency bound): it may wait for a paced flush's wake-up.
        this.completions = new Completions(eventLoop, settlements::resultsMayWait, (context, delivery, result) -> {
            recordArrivals();
            next.pass(context, delivery, result, false);
        });
    }

    @Override
    public void take(InboundDelivery delivery) {
        ContextInternal context = DeliveryContexts.newContext(eventLoop);
        settlements.arrived(delivery);
        arrivals.offer(delivery);
        try {
            threads.run(context, delivery, () -> completions.offer(context, delivery, handling.run(delivery)));
        } catch (Throwable t) {
            completions.offer(context, delivery, new HandlerInvocation.Failed(t));
        }
    }

    /** On the event loop: takes the arrivals recorded since the last call into the ack window. */
    private void recordArrivals() {
        InboundDelivery arrived;
        while ((arrived = arrivals.poll()) != null) {
            settlements.received(arrived);
        }
    }
}
