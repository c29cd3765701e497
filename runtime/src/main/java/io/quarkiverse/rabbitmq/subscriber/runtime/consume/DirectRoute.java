package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * An off-loop handler without a concurrency bound: each delivery goes from the reader thread straight to the
 * handler's thread, without waking the event loop (that wake-up cost about a third of a worker drain); the loop sees
 * the delivery with its result.
 * <p>
 * Its place in the ack window is taken as it arrives ({@code Settlements.arrived}), on the reader thread: the loop takes
 * it in when it next settles.
 */
public final class DirectRoute implements DeliveryRoute {

    private final Context eventLoop;
    private final Settlements settlements;
    private final HandlerThreads threads;
    private final Handling<InboundDelivery> handling;
    private final Completions completions;

    public DirectRoute(Context eventLoop, Settlements settlements, HandlerThreads threads, Handling<InboundDelivery> handling,
            ResultStage next) {
        this.eventLoop = eventLoop;
        this.settlements = settlements;
        this.threads = threads;
        this.handling = handling;
        // Nothing waits on a result here but its ack (no concurrency bound): it may wait for a paced flush's wake-up.
        this.completions = new Completions(eventLoop, settlements::resultsMayWait,
                (context, delivery, result) -> next.pass(context, delivery, result, false));
    }

    @Override
    public void take(InboundDelivery delivery) {
        ContextInternal context = DeliveryContexts.newContext(eventLoop);
        settlements.arrived(delivery);
        try {
            threads.run(context, delivery, () -> completions.offer(context, delivery, handling.run(delivery)));
        } catch (Throwable t) {
            completions.offer(context, delivery, Verdict.thrown(t));
        }
    }
}
