package io.quarkiverse.rabbitmq.subscriber.runtime.delay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * The {@code IN_SERVICE} delay: the service holds the copy of a message and publishes it back to its queue once the
 * delay has passed on the runtime's clock. At most once across a crash; a graceful stop publishes every pending copy at
 * once, so a clean restart loses nothing.
 * <p>
 * The original was acked when the copy was taken in, so nothing else would bring the message back: a copy is
 * published {@code mandatory} on a channel in confirm mode and held until RabbitMQ confirms it. A copy written into a
 * connection that then dies (a stall, a reset) is not confirmed, and is published again once the connection is back;
 * a returned or nacked one is tried again a second later. Duplicates are possible, losses are not (short of a crash).
 * <p>
 * The held copies belong to the subscription, not to a channel: they are published on a channel of the publishing
 * connection, so a resubscription or a reconnection keeps them, and one due while the connection is down is tried
 * again every second until the connection is back.
 */
public final class InServiceDelay {

    private static final Logger LOG = Logger.getLogger(InServiceDelay.class);

    /** A copy whose publish failed (the connection is being recovered) is tried again this much later. */
    private static final Duration RETRY_PUBLISH = Duration.ofSeconds(1);
    /** On a graceful stop, how long to wait for the confirms of the copies published then. */
    private static final long STOP_CONFIRM_WAIT_MILLIS = 5_000;

    private final String queue;
    private final Clock clock;
    private final Supplier<BrokerConnection> connection;
    /** Guards everything below. */
    private final Object lock = new Object();
    private final Set<PendingCopy> pending = new LinkedHashSet<>();
    /** Published, not confirmed yet, by sequence number on {@link #channel}. */
    private final TreeMap<Long, PendingCopy> unconfirmed = new TreeMap<>();
    private BrokerChannel channel;
    /** After a graceful stop released the copies, new ones go out at once: no timer outlives the stop. */
    private boolean released;

    /** @param connection where copies are published (the publishing connection, opened on first use) */
    public InServiceDelay(String queue, Clock clock, Supplier<BrokerConnection> connection) {
        this.queue = queue;
        this.clock = clock;
        this.connection = connection;
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

    /** How many copies wait, to be published or confirmed. */
    public int pending() {
        synchronized (lock) {
            return pending.size() + unconfirmed.size();
        }
    }

    /** Holds a copy ({@code messageId} names it in logs) for {@code delay}; call before the original is acked. */
    public void hold(AMQP.BasicProperties properties, byte[] body, String messageId, Duration delay) {
        hold(new PendingCopy(properties, body, messageId, clock.millis() + delay.toMillis()), delay.toMillis());
    }

    private void hold(PendingCopy copy, long wait) {
        synchronized (lock) {
            // Due already: the copy goes now, without a timer a paused clock would hold.
            if (!released && wait > 0) {
                pending.add(copy);
                copy.timer = clock.schedule(Duration.ofMillis(wait), () -> release(copy));
                return;
            }
        }
        publishOrRetry(copy);
    }

    /** A copy is due: publish it (on the clock's thread). */
    private void release(PendingCopy copy) {
        synchronized (lock) {
            if (!pending.remove(copy)) {
                return;
            }
        }
        publishOrRetry(copy);
    }

    private void publishOrRetry(PendingCopy copy) {
        if (tryPublish(copy)) {
            return;
        }
        synchronized (lock) {
            // Its original was acked: while the service runs, a failed publish (a connection being recovered) is
            // tried again rather than dropped.
            if (!released) {
                LOG.debugf("Publishing the delayed copy of %s to queue '%s' failed; trying again in %s", copy.messageId,
                        queue, RETRY_PUBLISH);
                hold(copy, RETRY_PUBLISH.toMillis());
                return;
            }
        }
        LOG.errorf("Could not publish the delayed copy of %s back to queue '%s' while stopping: the copy is lost",
                copy.messageId, queue);
    }

    /**
     * Publishes under the channel's monitor with its sequence number recorded first, so a confirm never arrives for a
     * copy not yet known.
     */
    private boolean tryPublish(PendingCopy copy) {
        BrokerChannel current;
        try {
            current = channel();
        } catch (Exception e) {
            return false;
        }
        synchronized (current) {
            long sequenceNumber = current.nextPublishSeqNo();
            synchronized (lock) {
                unconfirmed.put(sequenceNumber, copy);
            }
            try {
                current.publish("", queue, true, copy.properties, copy.body);
                return true;
            } catch (Exception e) {
                synchronized (lock) {
                    unconfirmed.remove(sequenceNumber);
                }
                return false;
            }
        }
    }

    /** The confirm-mode channel copies go out on, opened on first use. */
    private BrokerChannel channel() throws Exception {
        synchronized (lock) {
            if (channel != null) {
                return channel;
            }
        }
        BrokerChannel opened = connection.get().createChannel();
        opened.confirmSelect(new PublishListener() {
            @Override
            public void acked(long sequenceNumber, boolean multiple) {
                confirmed(sequenceNumber, multiple, true);
            }

            @Override
            public void nacked(long sequenceNumber, boolean multiple) {
                confirmed(sequenceNumber, multiple, false);
            }

            @Override
            public void returned(int replyCode, String replyText, String exchange, String routingKey,
                    AMQP.BasicProperties properties, byte[] body) {
                returnedCopy(replyText, properties);
            }

            @Override
            public void closed(String reason) {
                channelClosed();
            }
        });
        synchronized (lock) {
            if (channel == null) {
                channel = opened;
                return opened;
            }
        }
        opened.close();
        return channel();
    }

    private void confirmed(long sequenceNumber, boolean multiple, boolean acked) {
        List<PendingCopy> refused = new ArrayList<>();
        synchronized (lock) {
            Map<Long, PendingCopy> settled = multiple ? unconfirmed.headMap(sequenceNumber, true)
                    : unconfirmed.containsKey(sequenceNumber) ? Map.of(sequenceNumber, unconfirmed.get(sequenceNumber))
                            : Map.of();
            if (!acked) {
                refused.addAll(settled.values());
            }
            for (Long settledNumber : List.copyOf(settled.keySet())) {
                unconfirmed.remove(settledNumber);
            }
        }
        for (PendingCopy copy : refused) {
            LOG.errorf("RabbitMQ nacked the delayed copy of %s to queue '%s': publishing it again in %s",
                    copy.messageId, queue, RETRY_PUBLISH);
            hold(copy, RETRY_PUBLISH.toMillis());
        }
    }

    /** A return comes before the confirm of the same message: the oldest unconfirmed copy with its id is the one. */
    private void returnedCopy(String replyText, AMQP.BasicProperties properties) {
        PendingCopy returned = null;
        synchronized (lock) {
            Iterator<Map.Entry<Long, PendingCopy>> entries = unconfirmed.entrySet().iterator();
            while (entries.hasNext()) {
                PendingCopy copy = entries.next().getValue();
                if (java.util.Objects.equals(copy.properties.getMessageId(), properties.getMessageId())) {
                    entries.remove();
                    returned = copy;
                    break;
                }
            }
        }
        if (returned != null) {
            LOG.errorf("Queue '%s' does not exist: RabbitMQ returned the delayed copy of %s (%s). Publishing it again "
                    + "in %s", queue, returned.messageId, replyText, RETRY_PUBLISH);
            hold(returned, RETRY_PUBLISH.toMillis());
        }
    }

    /** No confirm comes any more for what the channel had: those copies are published again. */
    private void channelClosed() {
        List<PendingCopy> again;
        synchronized (lock) {
            again = new ArrayList<>(unconfirmed.values());
            unconfirmed.clear();
        }
        for (PendingCopy copy : again) {
            // Now: the publish fails until the connection is back, and is retried every second meanwhile.
            hold(copy, 0);
        }
    }

    /** On a graceful stop: publishes every copy still waiting, now, and waits a little for their confirms. */
    public void releaseAll() {
        Set<PendingCopy> copies;
        synchronized (lock) {
            released = true;
            copies = new LinkedHashSet<>(pending);
            pending.clear();
        }
        for (PendingCopy copy : copies) {
            copy.timer.cancel();
            publishOrRetry(copy);
        }
        long deadline = System.currentTimeMillis() + STOP_CONFIRM_WAIT_MILLIS;
        int left;
        synchronized (lock) {
            while ((left = unconfirmed.size()) > 0 && System.currentTimeMillis() < deadline) {
                try {
                    lock.wait(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        if (!copies.isEmpty()) {
            LOG.infof("Published %d delayed copy(ies) back to queue '%s' early, on shutdown%s", copies.size(), queue,
                    left > 0 ? "; " + left + " not confirmed by RabbitMQ in time" : "");
        }
        // Closed outside the lock: a broker calls the channel's close listener (channelClosed) on its own thread.
        BrokerChannel closing;
        synchronized (lock) {
            closing = channel;
            channel = null;
        }
        if (closing != null) {
            closing.close();
        }
    }
}
