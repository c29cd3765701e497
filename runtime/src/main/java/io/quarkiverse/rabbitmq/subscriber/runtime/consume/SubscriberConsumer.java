package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.Queue;
import java.util.concurrent.atomic.AtomicBoolean;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.netty.util.internal.PlatformDependent;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * Receives deliveries on amqp-client's reader thread (consumer callbacks run inline there: see
 * {@code ReaderThreadDispatch} and {@link DeliveryHandler}), so it only hands them off. An event-loop handler's
 * deliveries queue up in an inbox, and the event loop is woken once per burst rather than once per message; it then
 * runs each delivery on a fresh duplicated context (so handler-local data does not leak between messages), in arrival
 * order. A worker or virtual-thread handler's deliveries go from here straight to the handler's thread (see
 * {@link HandlerDispatcher#arrive}): waking the event loop only to pass them on cost a thread wake-up per burst, about
 * a third of a worker drain.
 */
public final class SubscriberConsumer implements DeliveryHandler {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(SubscriberConsumer.class);

    private final String queue;
    private final Context eventLoop;
    private final HandlerDispatcher dispatcher;
    private final InFlight inFlight;
    private final String retryCountHeader;
    /** Which deliveries the runtime wrote (their route headers are honoured): see {@code Provenance}. */
    private final io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance provenance;
    private final Queue<InboundDelivery> inbox = PlatformDependent.newMpscQueue();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    /** Told why the consumer stopped taking deliveries: the subscriber subscribes again on a fresh channel. */
    private final java.util.function.Consumer<String> onLost;
    /** Dev mode: a delivery first triggers the hot-reload scan; null elsewhere. */
    private final ReloadGate reloadGate;
    private volatile boolean stopping;

    /**
     * @param reloadScan dev mode's hot-reload scan (see {@code ReloadOnMessage}); null outside dev mode
     */
    public SubscriberConsumer(String queue, Context eventLoop, HandlerDispatcher dispatcher, InFlight inFlight,
            String retryCountHeader, java.util.function.Consumer<String> onLost,
            java.util.function.Supplier<java.util.concurrent.CompletableFuture<Boolean>> reloadScan) {
        this(queue, eventLoop, dispatcher, inFlight, retryCountHeader,
                io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance.NONE, onLost, reloadScan);
    }

    public SubscriberConsumer(String queue, Context eventLoop, HandlerDispatcher dispatcher, InFlight inFlight,
            String retryCountHeader, io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance provenance,
            java.util.function.Consumer<String> onLost,
            java.util.function.Supplier<java.util.concurrent.CompletableFuture<Boolean>> reloadScan) {
        this.provenance = provenance;
        this.onLost = onLost;
        this.reloadGate = reloadScan == null ? null : new ReloadGate(reloadScan);
        this.queue = queue;
        this.eventLoop = eventLoop;
        this.dispatcher = dispatcher;
        this.inFlight = inFlight;
        this.retryCountHeader = retryCountHeader;
    }

    /** From now on deliveries are left unsettled: the broker requeues them when the channel closes. */
    public void stopTakingDeliveries() {
        stopping = true;
    }

    /**
     * Never throws: a delivery that cannot be taken (a header table the client cannot read, say) is this consumer's
     * failure, reported to its subscriber, which subscribes again; the broker's thread goes on reading.
     */
    @Override
    public void delivered(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
        try {
            if (reloadGate != null) {
                reloadGate.admit(() -> accept(envelope, properties, body));
            } else {
                accept(envelope, properties, body);
            }
        } catch (RuntimeException | Error e) {
            failed(e);
        }
    }

    private void accept(Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
        // Counted before the check: a stop that sees no delivery in flight cannot miss one that passed the check.
        inFlight.begin();
        if (stopping) {
            inFlight.end(1);
            return;
        }
        InboundDelivery delivery;
        try {
            delivery = new InboundDelivery(queue, envelope, properties, body, retryCountHeader, provenance);
        } catch (RuntimeException | Error e) {
            // It never reaches a handler (the channel's close gives it back): a stop must not wait for it.
            inFlight.end(1);
            throw e;
        }
        if (dispatcher.takesDeliveriesDirectly()) {
            // Worker and virtual-thread handlers: straight to the handler's thread, without waking the event loop.
            dispatcher.arrive(newContext(), delivery);
            return;
        }
        inbox.offer(delivery);
        if (drainScheduled.compareAndSet(false, true)) {
            eventLoop.runOnContext(ignored -> drain());
        }
    }

    @Override
    public void cancelled() {
        if (!stopping) {
            onLost.accept("the broker cancelled its consumer");
        }
    }

    private void failed(Throwable cause) {
        if (!stopping) {
            LOG.debugf(cause, "Taking a delivery from queue '%s' failed", queue);
            onLost.accept("taking a delivery failed (" + cause + ")");
        }
    }

    private void drain() {
        // Reset first: a delivery offered after this point either is polled below or schedules the next drain.
        drainScheduled.set(false);
        InboundDelivery delivery;
        while ((delivery = inbox.poll()) != null) {
            ContextInternal context = newContext();
            context.dispatch(delivery, next -> dispatcher.dispatch(context, next));
        }
    }

    /** A fresh duplicated context of the subscriber's event loop for one delivery: safe to create on any thread. */
    private ContextInternal newContext() {
        ContextInternal context = (ContextInternal) VertxContext.createNewDuplicatedContext(eventLoop);
        VertxContextSafetyToggle.setContextSafe(context, true);
        return context;
    }
}
