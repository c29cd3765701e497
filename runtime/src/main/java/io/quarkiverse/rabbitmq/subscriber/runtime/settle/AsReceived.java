package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.function.IntSupplier;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

/**
 * Where a message goes that no copy can be made of: its headers leave no room for the runtime's, the client refused
 * to send the copy, or RabbitMQ refused a copy of it before ({@link RefusedCopies}). It is settled without a copy and
 * without losing it, as received: see {@link #settle}.
 */
final class AsReceived {

    private static final Logger LOG = Logger.getLogger(AsReceived.class);

    /** How the settler publishes: to a queue (mandatory), then acks the original once the broker has it. */
    @FunctionalInterface
    interface Publish {
        /** @param refused run when the client refused to send it */
        void publish(Unsettled delivery, String queue, AMQP.BasicProperties properties, boolean confirmed,
                Runnable refused);
    }

    private final String queue;
    /** Null when the subscription has no dead-letter queue. */
    private final String deadLetterQueue;
    private final Provenance provenance;
    /** The largest frame the channel carries: what a message's properties must fit. */
    private final IntSupplier frameMax;
    private final RefusedCopies refusedCopies;
    private final Acknowledgements acks;
    private final Publish publish;

    AsReceived(String queue, String deadLetterQueue, Provenance provenance, IntSupplier frameMax,
            RefusedCopies refusedCopies, Acknowledgements acks, Publish publish) {
        this.queue = queue;
        this.deadLetterQueue = deadLetterQueue;
        this.provenance = provenance;
        this.frameMax = frameMax;
        this.refusedCopies = refusedCopies;
        this.acks = acks;
        this.publish = publish;
    }

    /**
     * RabbitMQ closed the copies' channel refusing what was published for this message: remembered, so that when the
     * message comes back it is settled as received instead of copied the same way again ({@link #refusedBefore}).
     */
    void refusedForWhatItIs(Unsettled original, String reason) {
        int times = refusedCopies.refused(original, reason).times();
        LOG.errorf("Queue '%s': RabbitMQ refused what was published for %s (%s). When it comes back it is %s", queue,
                original.describe(), reason, times == 1 ? "not copied again but settled as received"
                        : "rejected without requeue");
    }

    /**
     * Settles a message whose copy RabbitMQ refused before, once as received ({@link #settle}), and rejects it without
     * requeue if that was refused too; false (nothing sent) for any other message.
     */
    boolean refusedBefore(Unsettled delivery, Settlement.Republish republish) {
        RefusedCopies.Refusal refusal = refusedCopies.of(delivery);
        if (refusal == null) {
            return false;
        }
        if (refusal.times() == 1) {
            settle(delivery, republish, "RabbitMQ refused its copy before (" + refusal.reason() + ")");
            return true;
        }
        LOG.errorf("Queue '%s': RabbitMQ refused %s as received too (%s). Rejecting it without requeue (the queue's "
                + "dead-letter exchange keeps it if it has one)", queue, delivery.describe(), refusal.reason());
        acks.reject(delivery, false);
        return true;
    }

    /**
     * No copy of this message can be published as built (its own headers leave no room for the extension's). It is
     * settled without losing it, as a message the runtime cannot count is: a first delivery is requeued; a redelivery,
     * and any dead letter, goes to the dead-letter queue as it was received (which fitted the frame, or the broker could
     * not have delivered it), under the runtime's user ({@link CopyProperties#asReceived}), and a letter to park to the
     * parking queue so; without a dead-letter queue it is rejected without requeue, to the queue's own dead-letter
     * exchange if it has one, as the cap would have done.
     */
    void settle(Unsettled delivery, Settlement.Republish republish, String reason) {
        boolean retry = republish.target() == Settlement.Target.COPY;
        if (retry && !delivery.redelivered()) {
            LOG.errorf("Queue '%s': cannot publish %s of %s to '%s': %s. Requeueing it instead; if it is not handled "
                    + "at its redelivery, it goes to %s", queue, republish.what(), delivery.describe(), republish.queue(),
                    reason, deadLetterQueue == null ? "the queue's own dead-letter exchange (rejected without requeue)"
                            : "dead-letter queue '" + deadLetterQueue + "' as received");
            acks.reject(delivery, true);
            return;
        }
        // A letter a dead-letter queue's reader parks goes to the parking queue as received, never away.
        String lastResort = republish.target() == Settlement.Target.PARK ? republish.queue() : deadLetterQueue;
        if (lastResort == null) {
            LOG.errorf("Queue '%s': cannot publish %s of %s to '%s': %s. Rejecting it without requeue (the queue's "
                    + "dead-letter exchange keeps it if the queue has one)", queue, republish.what(),
                    delivery.describe(), republish.queue(), reason);
            acks.reject(delivery, false);
            return;
        }
        AMQP.BasicProperties asReceived = CopyProperties.asReceived(delivery, provenance);
        if (!io.quarkiverse.rabbitmq.subscriber.runtime.broker.ContentHeaders.fit(asReceived, delivery.body().length,
                frameMax.getAsInt())) {
            // The runtime's user-id took the last room: without it, as it came.
            asReceived = CopyProperties.asReceivedUnmarked(delivery, provenance);
        }
        if (!io.quarkiverse.rabbitmq.subscriber.runtime.broker.ContentHeaders.fit(asReceived, delivery.body().length,
                frameMax.getAsInt())) {
            LOG.errorf("Queue '%s': cannot publish %s to dead-letter queue '%s', not even as received: %s. Requeueing "
                    + "it", queue, delivery.describe(), lastResort, reason);
            acks.reject(delivery, true);
            return;
        }
        LOG.errorf("Queue '%s': cannot publish %s of %s to '%s': %s. Publishing it to dead-letter queue '%s' as "
                + "received, without the retry count and failure headers", queue, republish.what(), delivery.describe(),
                republish.queue(), reason, lastResort);
        publish.publish(delivery, lastResort, asReceived, republish.confirmed(), () -> {
            LOG.errorf("Queue '%s': the client refused %s for dead-letter queue '%s' as received too: requeueing it",
                    queue, delivery.describe(), lastResort);
            acks.reject(delivery, true);
        });
    }
}
