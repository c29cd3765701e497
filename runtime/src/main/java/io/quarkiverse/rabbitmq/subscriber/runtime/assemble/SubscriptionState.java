package io.quarkiverse.rabbitmq.subscriber.runtime.assemble;

import io.quarkiverse.rabbitmq.subscriber.runtime.delay.InServiceDelay;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.UnsettledBytes;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.SubscriberSupervisor;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.UnreadableMessageFinder;

/**
 * What one subscription keeps for the application's whole run, whatever happens to its channels: its definition, its
 * supervisor, and the {@code IN_SERVICE} delayed copies it holds (a resubscription or a reconnection keeps them; a
 * graceful stop publishes them). Made once at startup; the assembler builds each new channel's consumer from it.
 */
public final class SubscriptionState implements UnreadableMessageFinder.Suspect {

    private final SubscriberDefinition definition;
    private volatile SubscriberSupervisor supervisor;
    private volatile io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch killSwitch = io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch.NONE;
    private volatile InServiceDelay heldCopies;
    private volatile UnsettledBytes unsettledBytes;
    /** Outlives the subscription's channels: a message whose copy RabbitMQ refused comes back on a fresh one. */
    private final io.quarkiverse.rabbitmq.subscriber.runtime.settle.RefusedCopies refusedCopies = new io.quarkiverse.rabbitmq.subscriber.runtime.settle.RefusedCopies();

    SubscriptionState(SubscriberDefinition definition) {
        this.definition = definition;
    }

    public io.quarkiverse.rabbitmq.subscriber.runtime.settle.RefusedCopies refusedCopies() {
        return refusedCopies;
    }

    public SubscriberDefinition definition() {
        return definition;
    }

    @Override
    public String queue() {
        return definition.subscription.queue;
    }

    @Override
    public SubscriberSupervisor supervisor() {
        return supervisor;
    }

    void supervisedBy(SubscriberSupervisor supervisor) {
        this.supervisor = supervisor;
    }

    /** Its kill switch ({@code KillSwitch.NONE} without one), made with the supervisor. */
    public io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch killSwitch() {
        return killSwitch;
    }

    void killSwitch(io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch killSwitch) {
        this.killSwitch = killSwitch;
    }

    /** The copies held for their delay, created with the first channel (the broker, and so the clock, are chosen). */
    synchronized InServiceDelay heldCopies(java.util.function.Supplier<InServiceDelay> create) {
        if (heldCopies == null) {
            heldCopies = create.get();
        }
        return heldCopies;
    }

    /** Its bound on unsettled body bytes, with the prefetch it consumes with, created with the first channel. */
    synchronized UnsettledBytes unsettledBytes(java.util.function.Supplier<UnsettledBytes> create) {
        if (unsettledBytes == null) {
            unsettledBytes = create.get();
        }
        return unsettledBytes;
    }

    /** Body bytes received and not settled now (0 before the first channel). */
    public long unsettledByteCount() {
        UnsettledBytes bytes = unsettledBytes;
        return bytes == null ? 0 : bytes.bytes();
    }

    /** The prefetch it consumes with now (the configured one until a bound on bytes cut it). */
    public int prefetchNow() {
        UnsettledBytes bytes = unsettledBytes;
        return bytes == null ? definition.subscription.prefetch : bytes.prefetch();
    }

    /** How many delayed copies the service holds for this subscription now. */
    public int heldCopyCount() {
        InServiceDelay delay = heldCopies;
        return delay == null ? 0 : delay.pending();
    }

    /** Publishes every held copy now (a graceful stop). */
    public void releaseHeldCopies() {
        InServiceDelay delay = heldCopies;
        if (delay != null) {
            delay.releaseAll();
        }
    }
}
