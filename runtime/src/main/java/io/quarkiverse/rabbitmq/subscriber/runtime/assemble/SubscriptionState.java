package io.quarkiverse.rabbitmq.subscriber.runtime.assemble;

import io.quarkiverse.rabbitmq.subscriber.runtime.delay.InServiceDelay;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.UnsettledBytes;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.RefusedCopies;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.SubscriberSupervisor;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.UnreadableMessageFinder;

/**
 * What one subscription keeps for the application's whole run, whatever happens to its channels: its parts (the
 * {@code IN_SERVICE} delayed copies it holds, which a resubscription or a reconnection keeps and a graceful stop
 * publishes; its bounds; its kill switch) and its supervisor. Made whole once at startup, by
 * {@link SubscriberAssembler}, which builds each new channel's consumer from the parts.
 */
public final class SubscriptionState implements UnreadableMessageFinder.Suspect,
        io.quarkiverse.rabbitmq.subscriber.runtime.supervise.StallWatch.Watched {

    /**
     * What a subscription's channels are built from, made before its supervisor: the parts hold the subscriber back
     * through {@code holdBacks}, the supervisor's, so none of them needs the supervisor.
     */
    record Parts(SubscriberDefinition definition, KillSwitch killSwitch, InServiceDelay heldCopies,
            UnsettledBytes unsettledBytes, RefusedCopies refusedCopies) {
    }

    private final Parts parts;
    private final SubscriberSupervisor supervisor;

    SubscriptionState(Parts parts, SubscriberSupervisor supervisor) {
        this.parts = parts;
        this.supervisor = supervisor;
    }

    /** Outlives the subscription's channels: a message whose copy RabbitMQ refused comes back on a fresh one. */
    public RefusedCopies refusedCopies() {
        return parts.refusedCopies();
    }

    public SubscriberDefinition definition() {
        return parts.definition();
    }

    @Override
    public String queue() {
        return parts.definition().subscription.queue;
    }

    @Override
    public SubscriberSupervisor supervisor() {
        return supervisor;
    }

    /** Its kill switch ({@code KillSwitch.NONE} without one). */
    public KillSwitch killSwitch() {
        return parts.killSwitch();
    }

    /** Body bytes received and not settled now. */
    public long unsettledByteCount() {
        return parts.unsettledBytes().bytes();
    }

    @Override
    public long takenCount() {
        return parts.unsettledBytes().takenCount();
    }

    @Override
    public long unsettledCount() {
        return parts.unsettledBytes().unsettledCount();
    }

    /** The prefetch it consumes with now (the configured one until a bound on bytes cut it). */
    public int prefetchNow() {
        return parts.unsettledBytes().prefetch();
    }

    /** How many delayed copies the service holds for this subscription now. */
    public int heldCopyCount() {
        return parts.heldCopies().pending();
    }

    /** Publishes every held copy now (a graceful stop). */
    public void releaseHeldCopies() {
        parts.heldCopies().releaseAll();
    }
}
