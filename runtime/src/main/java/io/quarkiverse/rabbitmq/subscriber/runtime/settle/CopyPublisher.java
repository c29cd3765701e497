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
 * Publishes a subscription's copies and dead letters on the delivery's own channel, {@code mandatory}, and follows
 * what the broker says of them. The channel is in confirm mode under {@code CONFIRMED}; confirms and returns arrive on
 * the client's reader thread and are handed to the subscriber's event loop at once, where everything here runs (so
 * nothing is locked).
 * <ul>
 * <li>Confirmed copies wait in a {@link ConfirmTracker}; a confirm (often a multiple one) releases the originals' acks, many
 * copies in flight at once. A nack, a return or no confirm within the timeout requeues the original.</li>
 * <li>Fire-and-forget copies ({@code DEFAULT}) had their original acked already. A returned dead letter is published
 * back to the work queue so it is not lost; a returned copy to the work queue means that queue is gone.</li>
 * </ul>
 * A return of a confirmed copy settles it (the tracker finds it by message id, exchange and routing key).
 */
final class CopyPublisher {

    private static final Logger LOG = Logger.getLogger(CopyPublisher.class);
    /**
     * How long a message whose copy the broker refused waits before it goes back to the work queue: a missing
     * dead-letter queue would otherwise send it round (and through its handler) at the broker's speed.
     */
    static final Duration REFUSED_PAUSE = Duration.ofSeconds(1);
    /** A missing queue is named at most once in this long, however many copies it returns. */
    private static final long LOG_EVERY_MILLIS = 10_000;

    /** What the settler does with an original once the broker answered for its copy. */
    interface CopyResult {
        void confirmed(Unsettled original);

        void refused(Unsettled original);

        /** The channel closed before the broker answered: nothing can be sent for the original any more. */
        void abandoned(Unsettled original);
    }

    private record Pending(Unsettled original, String queue) {
    }

    private final BrokerChannel channel;
    private final String workQueue;
    private final Context eventLoop;
    private final Clock clock;
    private final long timeoutMillis;
    private final CopyResult outcomes;
    private final io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers observers;
    private final ConfirmTracker<Pending> unconfirmed = new ConfirmTracker<>();
    private final Map<String, Long> lastLogged = new HashMap<>();
    private boolean timerScheduled;
    private boolean closed;

    CopyPublisher(BrokerChannel channel, String workQueue, Context eventLoop, Clock clock, Duration timeout,
            boolean confirms, io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers observers, CopyResult outcomes)
            throws IOException {
        this.observers = observers;
        this.channel = channel;
        this.workQueue = workQueue;
        this.eventLoop = eventLoop;
        this.clock = clock;
        this.timeoutMillis = timeout.toMillis();
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
                eventLoop.runOnContext(ignored -> channelClosed());
            }
        };
        // Confirm mode only where an original waits for its copy's confirm: it costs the broker a frame per copy.
        // Returns come either way.
        if (confirms) {
            channel.confirmSelect(listener);
        } else {
            channel.listen(listener);
        }
    }

    /** What became of a publish. */
    enum Sent {
        /** Written to the channel (confirmed: the original waits for the broker's word). */
        SENT,
        /** The client refused it before sending anything; the channel is open and the original still unsettled. */
        REFUSED,
        /** The channel is gone: the broker requeues the original with it. */
        CHANNEL_GONE
    }

    /** Publishes the copy. */
    Sent publish(Unsettled original, String exchange, String routingKey, boolean mandatory,
            AMQP.BasicProperties properties, boolean confirmed) {
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
            LOG.debugf("Could not publish the copy of %s to '%s': %s", original.describe(), routingKey, e);
            return Sent.CHANNEL_GONE;
        }
        observation.done(null);
        if (confirmed) {
            unconfirmed.published(sequenceNumber, properties.getMessageId(), exchange, routingKey,
                    new Pending(original, routingKey), clock.millis());
            scheduleTimeoutCheck();
        }
        return Sent.SENT;
    }

    private void confirm(long sequenceNumber, boolean multiple, boolean acked) {
        for (Pending pending : unconfirmed.answered(sequenceNumber, multiple)) {
            if (acked) {
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
        if (pending != null) {
            logMissing(routingKey, "the original " + pending.original().describe() + " is requeued in " + REFUSED_PAUSE);
            outcomes.refused(pending.original());
            return;
        }
        // Fire and forget: the original was acked already. A dead letter or a copy for a waiting queue goes back to the
        // work queue instead, after a pause (held in the service meanwhile, like a retryAfter copy), without the
        // expiration it had for the waiting queue.
        if (!routingKey.equals(workQueue)) {
            logMissing(routingKey, "the message goes back to queue '" + workQueue + "' in " + REFUSED_PAUSE);
            AMQP.BasicProperties back = properties.builder().expiration(null).build();
            clock.schedule(REFUSED_PAUSE, () -> eventLoop.runOnContext(ignored -> {
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
        for (Pending pending : unconfirmed.publishedBefore(clock.millis() - timeoutMillis + 1)) {
            LOG.errorf("RabbitMQ did not confirm the copy of %s to queue '%s' within %d ms: requeueing the original",
                    pending.original().describe(), pending.queue(), timeoutMillis);
            outcomes.refused(pending.original());
        }
        if (!unconfirmed.isEmpty()) {
            scheduleTimeoutCheck();
        }
    }

    /** No confirm comes any more; the broker requeues every original the channel held. */
    private void channelClosed() {
        closed = true;
        for (Pending pending : unconfirmed.closed()) {
            outcomes.abandoned(pending.original());
        }
    }
}
