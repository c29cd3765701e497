package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.io.IOException;
import java.time.Duration;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.vertx.core.Context;

/**
 * Publishes a subscription's copies, dead letters and outputs, {@code mandatory}. They go on a channel of their own on
 * the publishing connection ({@code copy-channel=publishing-connection}), or on the delivery's own channel.
 * <ul>
 * <li>Confirmed ones wait in {@link UnansweredPublishes} until the broker answers; each knows what its answer means
 * ({@link CopyInFlight}: the original acked, or requeued after a pause; {@link OutputInFlight}: its group's).</li>
 * <li>On a channel of their own every one is confirmed: nothing orders that channel's publishes before the delivery
 * channel's acks. A copy that cannot be written there requeues its original after a pause.</li>
 * <li>Fire-and-forget copies ({@code DEFAULT} on the delivery's channel) had their original acked already (the channel
 * carries the copy to the broker before the ack); a return of one goes to {@link ReturnedAfterAck}.</li>
 * </ul>
 */
final class CopyPublisher {

    private static final Logger LOG = Logger.getLogger(CopyPublisher.class);

    /** What the settler does with an original once the broker answered for its copy. */
    interface CopyResult {
        void confirmed(Unsettled original);

        void refused(Unsettled original);

        /** The channel closed before the broker answered: nothing can be sent for the original any more. */
        void abandoned(Unsettled original);

        /**
         * RabbitMQ closed the channel refusing this original's copy for what it was ({@link RefusedCopies}); told
         * before {@link #refused} or {@link #abandoned}, which follow as for any close.
         */
        void refusedForWhatItIs(Unsettled original, String reason);
    }

    private final BrokerChannel channel;
    /** Whether {@link #channel} is the copies' own, not the delivery's. */
    private final boolean ownChannel;
    /**
     * How long a message whose copy the broker refused waits before it goes back to the work queue: a missing
     * dead-letter queue would otherwise send it round (and through its handler) at the broker's speed.
     */
    private final Duration refusedPause;
    private final CopyResult outcomes;
    private final io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers observers;
    private final MissingQueues missing;
    /** What the broker has not answered yet. */
    private final UnansweredPublishes unanswered;

    /**
     * @param channel where the copies go
     * @param ownChannel whether that channel is theirs alone (then every copy is confirmed), not the delivery's
     * @param blocked whether RabbitMQ blocks the channel's connection now
     * @param confirms whether copies on the delivery's channel are confirmed ({@code CONFIRMED})
     */
    CopyPublisher(BrokerChannel channel, boolean ownChannel, java.util.function.BooleanSupplier blocked,
            String workQueue, Context eventLoop, Clock clock, Duration timeout, Duration refusedPause, boolean confirms,
            io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers observers, CopyResult outcomes)
            throws IOException {
        this.observers = observers;
        this.channel = channel;
        this.ownChannel = ownChannel;
        this.refusedPause = refusedPause;
        this.outcomes = outcomes;
        this.missing = new MissingQueues(clock);
        this.unanswered = new UnansweredPublishes(eventLoop, clock, timeout, blocked,
                new ReturnedAfterAck(channel, workQueue, eventLoop, clock, refusedPause, missing)::returned);
        // Confirm mode only where an original waits for its copy's confirm: it costs the broker a frame per copy.
        // Returns come either way.
        if (confirms || ownChannel) {
            channel.confirmSelect(unanswered);
        } else {
            channel.listen(unanswered);
        }
    }

    /** What became of a publish. */
    enum Sent {
        /** Written to the delivery's channel, unconfirmed: ack the original now. */
        ACK_NOW,
        /**
         * The original waits for the {@link CopyResult}: written and confirmed, or not written on the copies' own
         * channel (the original is requeued after a pause).
         */
        PENDING,
        /** The client refused it before sending anything; the channel is open and the original still unsettled. */
        REFUSED,
        /** The delivery's channel is gone: the broker requeues the original with it. */
        CHANNEL_GONE
    }

    /** Publishes the copy. */
    Sent publish(Unsettled original, String exchange, String routingKey, boolean mandatory,
            AMQP.BasicProperties properties, boolean confirmedCopy) {
        boolean confirmed = confirmedCopy || ownChannel;
        Exception failure = write(exchange, routingKey, mandatory, properties, original.body(), !confirmed ? null
                : new CopyInFlight(original, routingKey, ownChannel, outcomes, missing, refusedPause));
        if (failure == null) {
            return confirmed ? Sent.PENDING : Sent.ACK_NOW;
        }
        // A refusal by the client (BrokerChannel.publish checks the frame before amqp-client numbers anything) leaves
        // the channel open: the original must still be settled with a frame, never left to a later multiple ack.
        if (refusedByClient(failure)) {
            LOG.debugf("The client refused the copy of %s to '%s': %s", original.describe(), routingKey, failure);
            return Sent.REFUSED;
        }
        LOG.debugf("Could not publish the copy of %s to '%s': %s", original.describe(), routingKey, failure);
        if (ownChannel) {
            // The copies' channel is gone (its connection is down or recovering); the delivery's is not.
            outcomes.refused(original);
            return Sent.PENDING;
        }
        return Sent.CHANNEL_GONE;
    }

    /**
     * Publishes a delivery's outputs, {@code mandatory}, each confirmed (the channel is in confirm mode wherever a
     * subscription has outputs); the group hears what became of them.
     */
    void publishOutputs(java.util.List<io.quarkiverse.rabbitmq.subscriber.runtime.output.Output> outputs,
            java.util.function.UnaryOperator<AMQP.BasicProperties> traced, OutputsResult result) {
        OutputGroup group = new OutputGroup(outputs.size(), result);
        for (var output : outputs) {
            Exception failure = write(output.exchange(), output.routingKey(), output.mandatory(),
                    traced.apply(output.properties()), output.body(),
                    new OutputInFlight(group, output.destination(), ownChannel));
            if (failure != null && refusedByClient(failure)) {
                group.failed("the client refused the output to " + output.destination() + ": " + failure.getMessage());
            } else if (failure != null && ownChannel) {
                group.requeue("the outputs' channel was closed when the output to " + output.destination()
                        + " was to be published: " + failure);
            } else if (failure != null) {
                group.abandoned();
            }
            if (failure != null) {
                return;
            }
        }
    }

    /**
     * Writes one publish, observed, and follows it until the broker answers when {@code tracked} is not null (a
     * confirmed one); returns the failure, or null when it was written.
     */
    private Exception write(String exchange, String routingKey, boolean mandatory, AMQP.BasicProperties properties,
            byte[] body, InFlightPublish tracked) {
        unanswered.writing();
        // A copy carries its delivery's trace (see Settler): its publish span continues it.
        var observation = io.quarkiverse.rabbitmq.subscriber.runtime.observe.PublishObservation.NONE;
        if (observers.active()) {
            var observed = observers.publishingCopy(exchange, routingKey, properties);
            properties = observed.properties();
            observation = observed.observation();
        }
        long sequenceNumber;
        try {
            // The number and its publish in one step. Nothing else publishes on this channel off its event loop (held
            // copies go through their own confirm channel on the publishing connection): the monitor is uncontended.
            synchronized (channel) {
                sequenceNumber = tracked != null ? channel.nextPublishSeqNo() : 0;
                channel.publish(exchange, routingKey, mandatory, properties, body);
            }
        } catch (IOException | RuntimeException e) {
            observation.done(e);
            return e;
        }
        observation.done(null);
        if (tracked != null) {
            unanswered.published(sequenceNumber, properties.getMessageId(), exchange, routingKey, tracked);
        }
        return null;
    }

    /** The client refused to send it (a frame too large, say): the channel is still open. */
    private boolean refusedByClient(Exception failure) {
        return failure instanceof RuntimeException && channel.isOpen();
    }
}
