package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText;
import io.quarkiverse.rabbitmq.subscriber.runtime.publish.ConfirmTracker;
import io.vertx.core.Context;

/**
 * Publishes a subscription's copies and dead letters, {@code mandatory}, and follows what the broker says of them.
 * They go on a channel of their own on the publishing connection ({@code copy-channel=publishing-connection}), or on
 * the delivery's own channel. Confirms and returns arrive on the client's reader thread and are handed to the
 * subscriber's event loop at once, where everything here runs (so nothing is locked).
 * <ul>
 * <li>Confirmed copies wait in a {@link ConfirmTracker}; a confirm (often a multiple one) releases the originals' acks, many
 * copies in flight at once. A nack, a return or no confirm within the timeout requeues the original. While RabbitMQ
 * blocks the copies' connection (a memory or disk alarm) no copy times out: no confirm can come before the alarm
 * clears, and the originals waiting meanwhile hold the subscriber back through its prefetch.</li>
 * <li>On a channel of their own every copy is confirmed: nothing orders that channel's publishes before the
 * delivery channel's acks. A copy that cannot be written there requeues its original after a pause.</li>
 * <li>Fire-and-forget copies ({@code DEFAULT} on the delivery's channel) had their original acked already (the channel
 * carries the copy to the broker before the ack). A returned dead letter is published back to the work queue so it is
 * not lost; a returned copy to the work queue means that queue is gone.</li>
 * </ul>
 * A return of a confirmed copy settles it (the tracker finds it by message id, exchange and routing key).
 */
final class CopyPublisher {

    private static final Logger LOG = Logger.getLogger(CopyPublisher.class);
    /** A missing queue is named at most once in this long, however many copies it returns. */
    private static final long LOG_EVERY_MILLIS = 10_000;

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

    /** @param group null for a copy or dead letter; the delivery's outputs for an output */
    private record Pending(Unsettled original, String queue, OutputGroup group) {
    }

    private final BrokerChannel channel;
    /** Whether {@link #channel} is the copies' own, not the delivery's. */
    private final boolean ownChannel;
    /** Whether RabbitMQ blocks the connection of {@link #channel} now. */
    private final java.util.function.BooleanSupplier blocked;
    private final String workQueue;
    private final Context eventLoop;
    private final Clock clock;
    private final long timeoutMillis;
    /**
     * How long a message whose copy the broker refused waits before it goes back to the work queue: a missing
     * dead-letter queue would otherwise send it round (and through its handler) at the broker's speed.
     */
    private final Duration refusedPause;
    private final CopyResult outcomes;
    private final io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers observers;
    private final ConfirmTracker<Pending> unconfirmed = new ConfirmTracker<>();
    private final Map<String, Long> lastLogged = new HashMap<>();
    private boolean timerScheduled;
    private boolean closed;

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
        this.blocked = blocked;
        this.workQueue = workQueue;
        this.eventLoop = eventLoop;
        this.clock = clock;
        this.timeoutMillis = timeout.toMillis();
        this.refusedPause = refusedPause;
        this.outcomes = outcomes;
        PublishListener listener = new PublishListener() {
            @Override
            public void acked(long sequenceNumber, boolean multiple) {
                eventLoop.runOnContext(ignored -> confirm(sequenceNumber, multiple, true));
            }

            @Override
            public void nacked(long sequenceNumber, boolean multiple) {
                eventLoop.runOnContext(ignored -> confirm(sequenceNumber, multiple, false));
            }

            @Override
            public void returned(int replyCode, String replyText, String exchange, String routingKey,
                    AMQP.BasicProperties properties, byte[] body) {
                eventLoop.runOnContext(ignored -> returnedMessage(replyText, exchange, routingKey, properties, body));
            }

            @Override
            public void closed(String reason) {
                eventLoop.runOnContext(ignored -> channelClosed(reason));
            }
        };
        // Confirm mode only where an original waits for its copy's confirm: it costs the broker a frame per copy.
        // Returns come either way.
        if (confirms || ownChannel) {
            channel.confirmSelect(listener);
        } else {
            channel.listen(listener);
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

    /** Whether every copy is confirmed before its original is acked, whatever {@code retryPublish} says. */
    boolean confirmsEvery() {
        return ownChannel;
    }

    /** The largest frame the copies' channel carries, so the largest properties and headers of a copy. */
    int frameMax() {
        return channel.frameMax();
    }

    /** Publishes the copy. */
    Sent publish(Unsettled original, String exchange, String routingKey, boolean mandatory,
            AMQP.BasicProperties properties, boolean confirmedCopy) {
        boolean confirmed = confirmedCopy || ownChannel;
        closed = false;
        long sequenceNumber;
        // The copy carries its delivery's trace (see Settler): its publish span continues it.
        var observation = io.quarkiverse.rabbitmq.subscriber.runtime.observe.PublishObservation.NONE;
        if (observers.active()) {
            var observed = observers.publishingCopy(exchange, routingKey, properties);
            properties = observed.properties();
            observation = observed.observation();
        }
        try {
            // The number and its publish in one step. Nothing else publishes on this channel off its event loop (held
            // copies go through BrokerRabbitPublisher's confirm channel, on the publishing connection), so the monitor
            // is uncontended.
            synchronized (channel) {
                sequenceNumber = confirmed ? channel.nextPublishSeqNo() : 0;
                channel.publish(exchange, routingKey, mandatory, properties, original.body());
            }
        } catch (IOException | RuntimeException e) {
            observation.done(e);
            // A refusal by the client (BrokerChannel.publish checks the frame before amqp-client numbers anything)
            // leaves the channel open: the original must still be settled with a frame, never left to a later
            // multiple ack.
            if (e instanceof RuntimeException && channel.isOpen()) {
                LOG.debugf("The client refused the copy of %s to '%s': %s", original.describe(), routingKey, e);
                return Sent.REFUSED;
            }
            if (ownChannel) {
                // The copies' channel is gone (its connection is down or recovering); the delivery's is not.
                LOG.debugf("Could not publish the copy of %s to '%s' (%s): requeueing the original in %s",
                        original.describe(), routingKey, e, refusedPause);
                outcomes.refused(original);
                return Sent.PENDING;
            }
            LOG.debugf("Could not publish the copy of %s to '%s': %s", original.describe(), routingKey, e);
            return Sent.CHANNEL_GONE;
        }
        observation.done(null);
        if (confirmed) {
            unconfirmed.published(sequenceNumber, properties.getMessageId(), exchange, routingKey,
                    new Pending(original, routingKey, null), clock.millis());
            scheduleTimeoutCheck();
            return Sent.PENDING;
        }
        return Sent.ACK_NOW;
    }

    /**
     * Publishes a delivery's outputs, {@code mandatory}, each confirmed (the channel is in confirm mode wherever a
     * subscription has outputs); the group hears what became of them.
     */
    void publishOutputs(Unsettled original, java.util.List<io.quarkiverse.rabbitmq.subscriber.runtime.output.Output> outputs,
            java.util.function.UnaryOperator<AMQP.BasicProperties> traced, OutputsResult result) {
        closed = false;
        OutputGroup group = new OutputGroup(outputs.size(), result);
        for (var output : outputs) {
            AMQP.BasicProperties properties = traced.apply(output.properties());
            var observation = io.quarkiverse.rabbitmq.subscriber.runtime.observe.PublishObservation.NONE;
            if (observers.active()) {
                var observed = observers.publishingCopy(output.exchange(), output.routingKey(), properties);
                properties = observed.properties();
                observation = observed.observation();
            }
            long sequenceNumber;
            try {
                synchronized (channel) {
                    sequenceNumber = channel.nextPublishSeqNo();
                    channel.publish(output.exchange(), output.routingKey(), output.mandatory(), properties,
                            output.body());
                }
            } catch (IOException | RuntimeException e) {
                observation.done(e);
                if (e instanceof RuntimeException && channel.isOpen()) {
                    group.failed("the client refused the output to " + output.destination() + ": " + e.getMessage());
                } else if (ownChannel) {
                    group.requeue("the outputs' channel was closed when the output to " + output.destination()
                            + " was to be published: " + e);
                } else {
                    group.abandoned();
                }
                return;
            }
            observation.done(null);
            unconfirmed.published(sequenceNumber, properties.getMessageId(), output.exchange(), output.routingKey(),
                    new Pending(original, output.destination(), group), clock.millis());
        }
        scheduleTimeoutCheck();
    }

    private void confirm(long sequenceNumber, boolean multiple, boolean acked) {
        for (Pending pending : unconfirmed.answered(sequenceNumber, multiple)) {
            if (pending.group() != null) {
                if (acked) {
                    pending.group().confirmed();
                } else {
                    pending.group().failed("RabbitMQ nacked the output to " + pending.queue());
                }
            } else if (acked) {
                outcomes.confirmed(pending.original());
            } else {
                LOG.errorf("RabbitMQ nacked the copy of %s to queue '%s': requeueing the original",
                        pending.original().describe(), pending.queue());
                outcomes.refused(pending.original());
            }
        }
    }

    private void returnedMessage(String replyText, String exchange, String routingKey, AMQP.BasicProperties properties,
            byte[] body) {
        Pending pending = unconfirmed.returned(properties.getMessageId(), exchange, routingKey);
        if (pending != null && pending.group() != null) {
            pending.group().failed("RabbitMQ returned the output to " + pending.queue() + " (" + replyText
                    + "): no queue took it");
            return;
        }
        if (pending != null) {
            logMissing(routingKey, "the original " + pending.original().describe() + " is requeued in " + refusedPause);
            outcomes.refused(pending.original());
            return;
        }
        // Fire and forget: the original was acked already. A dead letter or a copy for a waiting queue goes back to the
        // work queue instead, after a pause (held in the service meanwhile, like a retryAfter copy), without the
        // expiration it had for the waiting queue.
        if (!routingKey.equals(workQueue)) {
            logMissing(routingKey, "the message goes back to queue '" + workQueue + "' in " + refusedPause);
            AMQP.BasicProperties back = properties.builder().expiration(null).build();
            clock.schedule(refusedPause, () -> eventLoop.runOnContext(ignored -> {
                try {
                    synchronized (channel) {
                        channel.publish("", workQueue, true, back, body);
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.errorf("Could not publish message-id %s back to queue '%s' after queue '%s' refused it (%s): "
                            + "it is lost", LogText.of(properties.getMessageId()), workQueue, routingKey, e);
                }
            }));
            return;
        }
        LOG.errorf("RabbitMQ could not route a copy of message-id %s to queue '%s' (%s) and it could not go back to "
                + "queue '%s': it is lost. Use retryPublish = CONFIRMED to requeue originals instead",
                LogText.of(properties.getMessageId()), routingKey, replyText, workQueue);
    }

    private void logMissing(String queue, String what) {
        long now = clock.millis();
        Long last = lastLogged.get(queue);
        if (last == null || now - last >= LOG_EVERY_MILLIS) {
            lastLogged.put(queue, now);
            LOG.errorf("Queue '%s' does not exist: RabbitMQ returned a message published to it (%s). Declare the "
                    + "queue; until then this repeats for each message that reaches it (logged once per %d s)", queue,
                    what, LOG_EVERY_MILLIS / 1000);
        }
    }

    private void scheduleTimeoutCheck() {
        if (!timerScheduled && !closed) {
            timerScheduled = true;
            clock.schedule(Duration.ofMillis(Math.max(1, timeoutMillis / 2)),
                    () -> eventLoop.runOnContext(ignored -> checkTimeouts()));
        }
    }

    private void checkTimeouts() {
        timerScheduled = false;
        if (blocked.getAsBoolean()) {
            // No confirm comes while the broker blocks the connection: requeueing the originals would only have them
            // handled again and their copies published twice once it reads the connection again.
            if (!unconfirmed.isEmpty()) {
                scheduleTimeoutCheck();
            }
            return;
        }
        for (Pending pending : unconfirmed.publishedBefore(clock.millis() - timeoutMillis + 1)) {
            if (pending.group() != null) {
                pending.group().failed("RabbitMQ did not confirm the output to " + pending.queue() + " within "
                        + timeoutMillis + " ms");
                continue;
            }
            LOG.errorf("RabbitMQ did not confirm the copy of %s to queue '%s' within %d ms: requeueing the original",
                    pending.original().describe(), pending.queue(), timeoutMillis);
            outcomes.refused(pending.original());
        }
        if (!unconfirmed.isEmpty()) {
            scheduleTimeoutCheck();
        }
    }

    /**
     * No confirm comes any more. On the delivery's channel the broker requeues every original with it; on the copies'
     * own channel the originals are still the subscriber's: requeued after a pause (their copies may have arrived:
     * duplicates, never losses).
     */
    private void channelClosed(String reason) {
        closed = true;
        java.util.List<Pending> inFlight = unconfirmed.closed();
        // RabbitMQ answers publishes in order and closes the channel at the one it refuses: the confirms of those
        // before it came first, so the oldest still unconfirmed is the one refused (those after it were dropped).
        Pending refused = RefusedCopies.isPublishRefusal(reason) && !inFlight.isEmpty() ? inFlight.get(0) : null;
        if (refused != null && refused.group() == null) {
            outcomes.refusedForWhatItIs(refused.original(), reason);
        }
        for (Pending pending : inFlight) {
            if (pending.group() != null) {
                if (pending == refused && ownChannel) {
                    // The handler's output, as it built it, would be refused again: a failed handling (an attempt).
                    pending.group().failed("RabbitMQ refused the output to " + pending.queue() + " (" + reason + ")");
                } else if (ownChannel) {
                    pending.group().requeue("the outputs' channel closed before RabbitMQ confirmed the output to "
                            + pending.queue());
                } else {
                    pending.group().abandoned();
                }
            } else if (ownChannel) {
                outcomes.refused(pending.original());
            } else {
                outcomes.abandoned(pending.original());
            }
        }
    }
}
