package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.UnsettledBytes;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;
import io.vertx.core.impl.ContextInternal;

/**
 * The frames that settle deliveries on the channel they came from, on the subscriber's event loop (amqp-client writes
 * from the calling thread: no hop to a worker). Rejects go out at once. Acks are gathered in an {@link AckWindow} and
 * sent at the end of the event loop's current batch, one {@code basic.ack multiple=true} for a run of consecutive acks,
 * when {@link AckPacing} says so: each delivery is still settled exactly once, with far fewer frames for the broker.
 */
final class Acknowledgements {

    private static final Logger LOG = Logger.getLogger(Acknowledgements.class);

    private final BrokerChannel channel;
    private final String queue;
    private final ContextInternal eventLoop;
    private final SettlementStats stats;
    /**
     * The application's deliveries not yet settled by a frame: told how many left the window once their frames are
     * written. The ack pacing reads it as what the broker counts unacknowledged for this subscriber: an overcount where
     * other subscribers are busy too, which only makes acks leave sooner; a count of this channel's window alone would
     * miss the deliveries running on worker threads, which enter it only when they complete.
     */
    private final InFlight inFlight;
    /** The subscription's bound on body bytes received and not settled. */
    private final UnsettledBytes unsettledBytes;
    /** Told how long each settlement frame took, when anything observes. */
    private final Observers observers;
    /** What the pacing and the frames' timings read. */
    private final Clock clock;
    private final AckWindow window = new AckWindow();
    /**
     * Deliveries arrived and not yet in the window, in delivery order: offered on the client's reader thread, taken in
     * on the event loop before the window is read or marked ({@link #takeArrivals}). A delivery's settlement follows its
     * arrival, so every delivery before it is in the window by then, settled or not, and a multiple ack never covers
     * one still running; and no route wakes the loop just to record an arrival.
     */
    private final java.util.Queue<Unsettled> arrivals = io.netty.util.internal.PlatformDependent.newMpscQueue();
    private final AckWindow.AckSender sender = this::sendAck;
    /** When the window's acks leave: at once, or gathered with those that follow soon. */
    private final AckPacing pacing;
    private boolean flushScheduled;
    /**
     * A timer is set to flush the acks that wait for others ({@link AckPacing}). Written on the event loop, read by
     * handlers' threads ({@link #resultsMayWait}).
     */
    private volatile boolean flushTimerSet;

    Acknowledgements(BrokerChannel channel, String queue, ContextInternal eventLoop, SettlementStats stats,
            InFlight inFlight, UnsettledBytes unsettledBytes, Observers observers, Clock clock) {
        this.clock = clock;
        this.channel = channel;
        this.queue = queue;
        this.eventLoop = eventLoop;
        this.stats = stats;
        this.inFlight = inFlight;
        this.unsettledBytes = unsettledBytes;
        this.observers = observers;
        this.pacing = new AckPacing(unsettledBytes::prefetch);
    }

    /**
     * Whether so many results of handlers that ran off the loop may wait for its next wake-up before it sees them: a
     * timer is set to flush the waiting acks (the loop wakes for it within the pacing's {@link AckPacing#QUIET_NANOS}
     * whatever else happens), and their acks would not leave at once ({@link AckPacing#atOnce}, counting those results
     * as the waiting acks: the window's own are the loop's to read). Any thread.
     */
    boolean resultsMayWait(int results) {
        return flushTimerSet && !pacing.atOnce(results, inFlight.count());
    }

    /**
     * A delivery arrived: its body counts against the subscription's bound on unsettled bytes until it leaves, and it
     * takes its place in the window, behind every delivery before it. On the client's reader thread, in delivery order.
     */
    void arrived(Unsettled delivery) {
        unsettledBytes.taken(delivery.body().length);
        arrivals.offer(delivery);
    }

    /** The deliveries arrived since the last call take their places in the window. Event loop only. */
    private void takeArrivals() {
        Unsettled arrived;
        while ((arrived = arrivals.poll()) != null) {
            arrived.ackSlot(window.add(arrived.deliveryTag()));
        }
    }

    /** Whether the delivery still waits for its frame. */
    boolean inFlight(Unsettled delivery) {
        takeArrivals();
        return delivery.ackSlot().state == AckWindow.IN_FLIGHT;
    }

    void ack(Unsettled delivery) {
        leave(delivery, AckWindow.ACK_PENDING);
        scheduleFlush();
    }

    void reject(Unsettled delivery, boolean requeue) {
        leave(delivery, AckWindow.SETTLED);
        long started = observers.active() ? clock.nanos() : 0;
        try {
            channel.reject(delivery.deliveryTag(), requeue);
        } catch (Exception e) {
            channelGone(requeue ? "reject (requeue)" : "reject", delivery.describe(), e);
        }
        if (started != 0) {
            observers.settled(queue, "reject", clock.nanos() - started);
        }
        inFlight.end(1);
        // A reject may open the head of the window for acks waiting behind it.
        scheduleFlush();
    }

    /** The broker requeues it with its channel, which is gone: it leaves the window, nothing is sent. */
    void leftWithTheChannel(Unsettled delivery) {
        leave(delivery, AckWindow.SETTLED);
        inFlight.end(1);
        scheduleFlush();
    }

    /** The delivery leaves the subscriber's hands: its slot in the window is marked, its body no longer counts. */
    private void leave(Unsettled delivery, byte state) {
        takeArrivals();
        window.mark(delivery.ackSlot(), state);
        unsettledBytes.released(delivery.body().length);
    }

    private void scheduleFlush() {
        if (!flushScheduled) {
            flushScheduled = true;
            // Runs after the tasks already queued on the event loop: the acks they produce go in the same frame.
            eventLoop.runOnContext(ignored -> flush());
        }
    }

    private void flush() {
        flushScheduled = false;
        long wait = pacing.delay(window.waiting(), inFlight.count(), clock.nanos());
        if (wait == 0) {
            window.flush(sender);
        } else if (!flushTimerSet) {
            flushTimerSet = true;
            // The loop's own timer, not the clock's: the wait is the wire's few milliseconds, and the acks must leave
            // when it ends under a paused clock too (see Clock#nanos).
            eventLoop.setTimer(Math.max(1, (wait + 999_999) / TimeUnit.MILLISECONDS.toNanos(1)), ignored -> {
                flushTimerSet = false;
                flush();
            });
        }
    }

    private void sendAck(long tag, boolean multiple, int count) {
        long started = observers.active() ? clock.nanos() : 0;
        try {
            channel.ack(tag, multiple);
        } catch (Exception e) {
            channelGone("ack", "delivery-tag " + tag + (multiple ? " (and the " + (count - 1) + " before it)" : ""), e);
        }
        if (started != 0) {
            observers.settled(queue, "ack", clock.nanos() - started);
        }
        stats.ackFrameSent();
        pacing.sent(clock.nanos());
        inFlight.end(count);
    }

    private void channelGone(String what, String which, Exception e) {
        // The channel is gone: the broker requeues every delivery it had not seen settled, so nothing is lost. The
        // engine logs the loss once (a WARN for a connection, an ERROR for a channel): one line per delivery would
        // bury it, so these are DEBUG.
        LOG.debugf("Could not send %s for %s on queue '%s' (%s); RabbitMQ requeues it with the channel", what, which,
                queue, e.toString());
    }
}
