package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;

/**
 * Receives deliveries on amqp-client's reader thread (consumer callbacks run inline there: see
 * {@code ReaderThreadDispatch} and {@link DeliveryHandler}), so it only hands them to the subscription's
 * {@link DeliveryRoute} (see {@code DeliveryChain}), which never blocks: through the event loop, or straight to the
 * handler's thread.
 */
public final class SubscriberConsumer implements DeliveryHandler {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(SubscriberConsumer.class);

    private final String queue;
    private final DeliveryRoute route;
    private final InFlight inFlight;
    private final String retryCountHeader;
    /** Which deliveries the runtime wrote (their route headers are honoured): see {@code Provenance}. */
    private final io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance provenance;
    /** Told why the consumer stopped taking deliveries: the subscriber subscribes again on a fresh channel. */
    private final java.util.function.Consumer<String> onLost;
    /** Dev mode: a delivery first triggers the hot-reload scan; null elsewhere. */
    private final ReloadGate reloadGate;
    private volatile boolean stopping;

    /**
     * @param reloadScan dev mode's hot-reload scan (see {@code ReloadOnMessage}); null outside dev mode
     */
    public SubscriberConsumer(String queue, DeliveryRoute route, InFlight inFlight, String retryCountHeader,
            java.util.function.Consumer<String> onLost,
            java.util.function.Supplier<java.util.concurrent.CompletableFuture<Boolean>> reloadScan) {
        this(queue, route, inFlight, retryCountHeader,
                io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance.NONE, onLost, reloadScan);
    }

    public SubscriberConsumer(String queue, DeliveryRoute route, InFlight inFlight, String retryCountHeader,
            io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance provenance,
            java.util.function.Consumer<String> onLost,
            java.util.function.Supplier<java.util.concurrent.CompletableFuture<Boolean>> reloadScan) {
        this.provenance = provenance;
        this.onLost = onLost;
        this.reloadGate = reloadScan == null ? null : new ReloadGate(reloadScan);
        this.queue = queue;
        this.route = route;
        this.inFlight = inFlight;
        this.retryCountHeader = retryCountHeader;
    }

    /** From now on deliveries are left unsettled: the broker requeues them when the channel closes. */
    public void stopTakingDeliveries() {
        stopping = true;
        route.draining();
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
        route.take(delivery);
    }

    @Override
    public void cancelled() {
        if (!stopping) {
            // The supervisor asks the broker why (ServerCancel): the cancel itself says nothing.
            onLost.accept("the broker cancelled its consumer");
        }
    }

    private void failed(Throwable cause) {
        if (!stopping) {
            LOG.debugf(cause, "Taking a delivery from queue '%s' failed", queue);
            onLost.accept("taking a delivery failed (" + cause + ")");
        }
    }
}
