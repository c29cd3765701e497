package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.Queue;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.util.internal.PlatformDependent;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * Deliveries through the subscriber's event loop: an event-loop handler's, and an off-loop handler's with a
 * concurrency bound (its waiting line is on the loop). They queue in an inbox and the loop is woken once per burst
 * rather than once per message; it then passes each on, on a fresh duplicated context, in arrival order. Each took its
 * place in the ack window as it arrived ({@code Settlements.arrived}).
 */
public final class EventLoopRoute implements DeliveryRoute {

    private final Context eventLoop;
    private final Settlements settlements;
    private final DeliveryStage next;
    private final Queue<InboundDelivery> inbox = PlatformDependent.newMpscQueue();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();

    /**
     * Whether each delivery gets a duplicated context of its own (its handler call runs on it); a batch handler's
     * deliveries do not: they only join a batch, which gets one ({@code BatchCollector}).
     */
    private final boolean contextPerDelivery;

    public EventLoopRoute(Context eventLoop, Settlements settlements, DeliveryStage next) {
        this(eventLoop, settlements, next, true);
    }

    public EventLoopRoute(Context eventLoop, Settlements settlements, DeliveryStage next, boolean contextPerDelivery) {
        this.eventLoop = eventLoop;
        this.settlements = settlements;
        this.next = next;
        this.contextPerDelivery = contextPerDelivery;
    }

    @Override
    public void take(InboundDelivery delivery) {
        settlements.arrived(delivery);
        inbox.offer(delivery);
        if (drainScheduled.compareAndSet(false, true)) {
            eventLoop.runOnContext(ignored -> drain());
        }
    }

    @Override
    public void draining() {
        // After the deliveries queued before it: they join the open batch first.
        eventLoop.runOnContext(ignored -> {
            drain();
            next.draining();
        });
    }

    private void drain() {
        // Reset first: a delivery offered after this point either is polled below or schedules the next drain.
        drainScheduled.set(false);
        InboundDelivery delivery;
        while ((delivery = inbox.poll()) != null) {
            if (!contextPerDelivery) {
                next.pass(eventLoop, delivery);
                continue;
            }
            ContextInternal context = DeliveryContexts.newContext(eventLoop);
            context.dispatch(delivery, taken -> next.pass(context, taken));
        }
    }
}
