package io.quarkiverse.rabbitmq.subscriber.runtime.delay;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * The {@code IN_SERVICE} delay: the service holds the copy of a message and publishes it back to its queue once the
 * delay has passed on the runtime's clock. At most once across a crash; a graceful stop publishes every pending copy at
 * once, so a clean restart loses nothing.
 * <p>
 * The held copies belong to the subscription, not to a channel: a copy is published on whatever channel the
 * subscription consumes on when it is due, so a resubscription on a new channel keeps them, and one due while the
 * connection is down is tried again every second until the connection is back.
 */
public final class InServiceDelay {

    private static final Logger LOG = Logger.getLogger(InServiceDelay.class);

    private final String queue;
    /** The subscription's current channel; replaced when it subscribes again on a new one. */
    private volatile BrokerChannel channel;
    private final Clock clock;
    private final Set<PendingCopy> pending = new LinkedHashSet<>();
    /** After a graceful stop released the copies, new ones go out at once: no timer outlives the stop. */
    private boolean released;

    /** A copy whose publish failed (the connection is being recovered) is tried again this much later. */
    private static final Duration RETRY_PUBLISH = Duration.ofSeconds(1);

    public InServiceDelay(String queue, Clock clock) {
        this.queue = queue;
        this.clock = clock;
    }

    /** The channel the subscription consumes on from now on: due copies are published there. */
    public void publishOn(BrokerChannel channel) {
        this.channel = channel;
    }

    /** How many copies wait. */
    public int pending() {
        synchronized (pending) {
            return pending.size();
        }
    }

    private static final class PendingCopy {
        final AMQP.BasicProperties properties;
        final byte[] body;
        final String messageId;
        /** When the copy is due, on the clock. */
        final long dueAt;
        Clock.Timer timer;

        PendingCopy(AMQP.BasicProperties properties, byte[] body, String messageId, long dueAt) {
            this.properties = properties;
            this.body = body;
            this.messageId = messageId;
            this.dueAt = dueAt;
        }
    }

    /** Holds a copy ({@code messageId} names it in logs) for {@code delay}; call before the original is acked. */
    public void hold(AMQP.BasicProperties properties, byte[] body, String messageId, Duration delay) {
        hold(new PendingCopy(properties, body, messageId, clock.millis() + delay.toMillis()));
    }

    private void hold(PendingCopy copy) {
        long wait = copy.dueAt - clock.millis();
        synchronized (pending) {
            // Due already: the copy goes now, without a timer a paused clock would hold.
            if (!released && wait > 0) {
                pending.add(copy);
                copy.timer = clock.schedule(Duration.ofMillis(wait), () -> release(copy));
                return;
            }
        }
        publish(copy);
    }

    /** A copy is due: publish it (on the clock's thread; see {@link #tryPublish}). */
    private void release(PendingCopy copy) {
        synchronized (pending) {
            if (!pending.remove(copy)) {
                return;
            }
        }
        if (tryPublish(copy)) {
            return;
        }
        synchronized (pending) {
            // Its original was acked: while the service runs, a failed publish (a connection being recovered) is
            // tried again rather than dropped.
            if (!released) {
                LOG.debugf("Publishing the delayed copy of %s to queue '%s' failed; trying again in %s", copy.messageId,
                        queue, RETRY_PUBLISH);
                pending.add(copy);
                copy.timer = clock.schedule(RETRY_PUBLISH, () -> release(copy));
                return;
            }
        }
        publish(copy);
    }

    /**
     * Publishes under the channel's monitor, as the subscriber's copy publisher does: where copies are confirmed, it
     * reads the channel's next sequence number and publishes as one step, so no delayed copy may come between.
     */
    private boolean tryPublish(PendingCopy copy) {
        BrokerChannel channel = this.channel;
        if (channel == null) {
            return false;
        }
        try {
            synchronized (channel) {
                channel.publish("", queue, false, copy.properties, copy.body);
            }
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /** Returns false (after one ERROR naming the message) when the copy could not be published. */
    private boolean publish(PendingCopy copy) {
        if (tryPublish(copy)) {
            return true;
        }
        LOG.errorf("Could not publish the delayed copy of %s back to queue '%s': its channel is closed for good. The "
                + "copy is lost", copy.messageId, queue);
        return false;
    }

    /** On a graceful stop: publishes every copy still waiting, now. */
    public void releaseAll() {
        Set<PendingCopy> copies;
        synchronized (pending) {
            released = true;
            copies = new LinkedHashSet<>(pending);
            pending.clear();
        }
        int published = 0;
        for (PendingCopy copy : copies) {
            copy.timer.cancel();
            if (publish(copy)) {
                published++;
            }
        }
        if (published > 0) {
            LOG.infof("Published %d delayed copy(ies) back to queue '%s' early, on shutdown", published, queue);
        }
    }
}
