package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.delay.DelayStrategy;
import io.quarkiverse.rabbitmq.subscriber.runtime.delay.InServiceDelay;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * Carries out settlements ({@link SettlementPlan} decides them) on the channel the delivery came from, from the
 * subscriber's event loop: amqp-client writes the frame from the calling thread, so there is no hop to a worker.
 * <p>
 * Rejects go out at once. Acks are gathered in an {@link AckWindow} and sent at the end of the event loop's current
 * batch, one {@code basic.ack multiple=true} for a run of consecutive acks: each delivery is still settled exactly
 * once, with far fewer frames for the broker to process. A copy or dead letter reaches the broker before its original
 * is acked (see {@link CopyOutlet}): on a channel of its own it is confirmed first; on the delivery's channel it is
 * published first, and the channel keeps that order. A crash in between duplicates, never loses. A confirmed one acks
 * the original when the broker confirms it, and requeues it when the broker refuses it.
 */
public final class Settler {

    private static final Logger LOG = Logger.getLogger(Settler.class);

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
    private final io.quarkiverse.rabbitmq.subscriber.runtime.consume.InFlight inFlight;
    private final InServiceDelay delay;
    private final DelayStrategy delays;
    private final String retryCountHeader;
    /** The user copies go under, and which deliveries the runtime wrote. */
    private final Provenance provenance;
    /** Null for a subscription that never publishes copies at once. */
    private final CopyPublisher copies;
    private final AckWindow window = new AckWindow();
    /** Told how long each settlement frame took, when anything observes. */
    private final Observers observers;
    private final AckWindow.AckSender sender = this::sendAck;
    private final Clock clock;
    /** The subscription's bound on body bytes received and not settled. */
    private final io.quarkiverse.rabbitmq.subscriber.runtime.consume.UnsettledBytes unsettledBytes;
    private boolean flushScheduled;
    /** When the window's acks leave: at once, or gathered with those that follow soon. */
    private final AckPacing pacing;
    /** A timer is set to flush the acks that wait for others ({@link AckPacing}). */
    private boolean flushTimerSet;
    /** How long a delivery whose copy could not be confirmed waits before it goes back to its queue. */
    private final Duration refusedPause;
    /** Settles what no copy can be made of. */
    private final AsReceived asReceived;

    public Settler(BrokerChannel channel, String queue, Context eventLoop, SettlementStats stats,
            io.quarkiverse.rabbitmq.subscriber.runtime.consume.InFlight inFlight,
            InServiceDelay delay, DelayStrategy delays, CopyPolicy policy, CopyOutlet outlet,
            io.quarkiverse.rabbitmq.subscriber.runtime.consume.UnsettledBytes unsettledBytes, Clock clock,
            Observers observers) throws IOException {
        this.unsettledBytes = unsettledBytes;
        this.clock = clock;
        this.observers = observers;
        this.channel = channel;
        this.queue = queue;
        this.eventLoop = (ContextInternal) eventLoop;
        this.stats = stats;
        this.inFlight = inFlight;
        this.delay = delay;
        this.delays = delays;
        this.retryCountHeader = policy.retryCountHeader();
        this.provenance = policy.provenance();
        this.pacing = new AckPacing(unsettledBytes::prefetch);
        this.refusedPause = policy.refusedPause();
        this.asReceived = new AsReceived(queue, policy.deadLetterQueue(), provenance, channel::frameMax,
                policy.refusedCopies(), new AsReceived.Frames() {
                    @Override
                    public void reject(Unsettled delivery, boolean requeue) {
                        Settler.this.reject(delivery, requeue);
                    }

                    @Override
                    public void publish(Unsettled delivery, String queue, AMQP.BasicProperties properties,
                            boolean confirmed, Runnable refused) {
                        Settler.this.publish(delivery, "", queue, true, properties, confirmed, refused);
                    }
                });
        this.copies = policy.publishesCopies() || policy.publishesOutputs()
                ? new CopyPublisher(outlet.channel(), outlet.own(), outlet.blocked(),
                        queue, eventLoop, clock,
                        policy.confirmTimeout(), policy.refusedPause(), policy.confirmsCopies() || policy.publishesOutputs(),
                        observers,
                        new CopyPublisher.CopyResult() {
                            @Override
                            public void confirmed(Unsettled original) {
                                ack(original);
                            }

                            @Override
                            public void refused(Unsettled original) {
                                // Requeued after a pause: see CopyPolicy.refusedPause().
                                clock.schedule(refusedPause,
                                        () -> Settler.this.eventLoop.runOnContext(ignored -> reject(original, true)));
                            }

                            @Override
                            public void refusedForWhatItIs(Unsettled original, String reason) {
                                asReceived.refusedForWhatItIs(original, reason);
                            }

                            @Override
                            public void abandoned(Unsettled original) {
                                // The broker requeues it with the channel: leave the window, send nothing.
                                leave(original, AckWindow.SETTLED);
                                inFlight.end(1);
                                scheduleFlush();
                            }
                        })
                : null;
    }

    /** Called on the event loop for each delivery, in the order they arrived. */
    public void received(Unsettled delivery) {
        delivery.ackSlot(window.add(delivery.deliveryTag()));
    }

    /**
     * Counts a delivery's body against the subscription's bound on unsettled bytes, as it arrives (before
     * {@link #received}, which a handler taking deliveries directly runs only at its completion). Any thread.
     */
    public void arrived(Unsettled delivery) {
        unsettledBytes.taken(delivery.body().length);
    }

    /** Carries out the settlement; returns false (and sends nothing) if the delivery was settled already. */
    public boolean settle(Unsettled delivery, Settlement settlement) {
        boolean onOwnLoop = eventLoop.nettyEventLoop().inEventLoop();
        if (!delivery.markSettled()) {
            LOG.errorf("Delivery %s on queue '%s' was already settled; ignoring the second settlement %s",
                    delivery.describe(), queue, settlement);
            return false;
        }
        stats.record(settlement, onOwnLoop);
        try {
            if (settlement instanceof Settlement.Reject reject) {
                reject(delivery, reject.requeue());
            } else if (settlement instanceof Settlement.Keep) {
                // Its handler never ran (the kill switch paused the subscriber): back to the queue's head.
                reject(delivery, true);
            } else if (settlement instanceof Settlement.Republish republish) {
                republish(delivery, republish);
            } else {
                ack(delivery);
            }
        } catch (RuntimeException e) {
            // Marked settled already: unless its slot left the window, give it back to the broker rather than leave it
            // in flight for good.
            LOG.errorf(e, "Carrying out %s for %s on queue '%s' failed; requeueing it", settlement, delivery.describe(),
                    queue);
            if (delivery.ackSlot().state == AckWindow.IN_FLIGHT) {
                reject(delivery, true);
            }
        }
        return true;
    }

    /**
     * Publishes the outputs of a delivery whose handler answered {@code ack}, with the delivery's trace, each
     * confirmed; the delivery itself is left unsettled: the result says what to settle it with. The subscription must
     * have been built with outputs ({@link CopyPolicy#publishesOutputs()}).
     */
    public void publishOutputs(Unsettled delivery,
            java.util.List<io.quarkiverse.rabbitmq.subscriber.runtime.output.Output> outputs,
            OutputsResult result) {
        java.util.function.UnaryOperator<AMQP.BasicProperties> traced = delivery
                .observation() == io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation.NONE
                        ? java.util.function.UnaryOperator.identity()
                        : properties -> io.quarkiverse.rabbitmq.subscriber.runtime.observe.HeaderTables.changed(
                                properties, delivery.observation()::propagate);
        copies.publishOutputs(delivery, outputs, traced, result);
    }

    /**
     * Gives a delivery back to its queue after {@link CopyPolicy#refusedPause()} (what it published could not be
     * confirmed: its connection is down, and an immediate redelivery would only fail the same way); then runs
     * {@code settled}.
     */
    public void requeueAfterPause(Unsettled delivery, Runnable settled) {
        clock.schedule(refusedPause, () -> eventLoop.runOnContext(ignored -> {
            if (settle(delivery, Settlement.REQUEUE)) {
                settled.run();
            }
        }));
    }

    /** Marks a delivery whose channel is gone as settled by the broker (it requeues it with the channel). */
    public void abandoned(Unsettled delivery) {
        if (delivery.markSettled()) {
            leave(delivery, AckWindow.SETTLED);
            inFlight.end(1);
            scheduleFlush();
        }
    }

    private void republish(Unsettled delivery, Settlement.Republish republish) {
        if (asReceived.refusedBefore(delivery, republish)) {
            return;
        }
        AMQP.BasicProperties properties = CopyProperties.of(delivery, provenance, retryCountHeader,
                republish.retryCount(), republish.failure());
        if (republish.reason() != null) {
            // Outcome.deadLetter: the handler's reason goes with the dead letter; a parked letter says why.
            String header = republish.target() == Settlement.Target.PARK
                    ? io.quarkiverse.rabbitmq.subscriber.DeadLetters.PARKED_REASON_HEADER
                    : io.quarkiverse.rabbitmq.subscriber.Outcome.DEAD_LETTER_REASON_HEADER;
            properties = io.quarkiverse.rabbitmq.subscriber.runtime.observe.HeaderTables.changed(properties,
                    headers -> headers.put(header, republish.reason()));
        }
        if (delivery.observation() != io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation.NONE) {
            // The copy or dead letter carries the delivery's trace on.
            properties = io.quarkiverse.rabbitmq.subscriber.runtime.observe.HeaderTables.changed(properties,
                    delivery.observation()::propagate);
        }
        String exchange = "";
        String routingKey = republish.queue();
        boolean mandatory = true;
        boolean held = false;
        if (!republish.delay().isZero()) {
            DelayStrategy.Placement placement = delays.place(properties, republish.delay());
            if (placement instanceof DelayStrategy.Publish onBroker) {
                // Waits on the broker: published now like any copy, before the original is acked.
                exchange = onBroker.exchange();
                routingKey = onBroker.routingKey();
                mandatory = onBroker.mandatory();
                properties = onBroker.properties();
            } else {
                // Held in the service: at most once across a crash, by design of the IN_SERVICE delay.
                held = true;
            }
        } else if (copies == null) {
            // A retryAfter(0) where nothing else publishes copies: published like a held copy that is due now.
            held = true;
        }
        // Every copy must fit one frame: a held one too, or its publish would fail at every try.
        CopyFit.Fitted fitted = CopyFit.fit(properties, delivery.body().length, channel.frameMax());
        if (fitted == null) {
            asReceived.settle(delivery, republish, "with the retry-count header its headers would exceed the connection's "
                    + "frame_max of " + channel.frameMax() + " bytes");
            return;
        }
        if (!fitted.dropped().isEmpty()) {
            LOG.errorf("Publishing %s of %s to '%s' without header(s) %s: with them its headers would exceed the "
                    + "connection's frame_max of %d bytes", republish.what(), delivery.describe(), routingKey,
                    fitted.dropped(), channel.frameMax());
        }
        properties = fitted.properties();
        if (held) {
            delay.hold(properties, delivery.body(), delivery.describe(), republish.delay());
            ack(delivery);
            return;
        }
        publish(delivery, exchange, routingKey, mandatory, properties, republish.confirmed(),
                () -> asReceived.settle(delivery, republish, "the client refused to publish it"));
    }

    /** Publishes a copy or dead letter, then acks the original (a confirmed one: when the broker confirms it). */
    private void publish(Unsettled delivery, String exchange, String routingKey, boolean mandatory,
            AMQP.BasicProperties properties, boolean confirmed, Runnable refused) {
        switch (copies.publish(delivery, exchange, routingKey, mandatory, properties, confirmed)) {
            case ACK_NOW -> ack(delivery);
            // The copy publisher settles the original once the broker answered.
            case PENDING -> {
            }
            // Nothing was sent and the channel is open: the original is settled some other way, with a frame.
            case REFUSED -> refused.run();
            case CHANNEL_GONE -> {
                // The broker requeues the original with the channel.
                leave(delivery, AckWindow.SETTLED);
                inFlight.end(1);
            }
        }
    }

    private void ack(Unsettled delivery) {
        leave(delivery, AckWindow.ACK_PENDING);
        scheduleFlush();
    }

    private void reject(Unsettled delivery, boolean requeue) {
        leave(delivery, AckWindow.SETTLED);
        long started = observers.active() ? System.nanoTime() : 0;
        try {
            channel.reject(delivery.deliveryTag(), requeue);
        } catch (Exception e) {
            channelGone(requeue ? "reject (requeue)" : "reject", delivery.describe(), e);
        }
        if (started != 0) {
            observers.settled(queue, "reject", System.nanoTime() - started);
        }
        inFlight.end(1);
        // A reject may open the head of the window for acks waiting behind it.
        scheduleFlush();
    }

    /** The delivery leaves the subscriber's hands: its slot in the window is marked, its body no longer counts. */
    private void leave(Unsettled delivery, byte state) {
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
        long wait = pacing.delay(window.waiting(), inFlight.count(), System.nanoTime());
        if (wait == 0) {
            window.flush(sender);
        } else if (!flushTimerSet) {
            flushTimerSet = true;
            eventLoop.setTimer(Math.max(1, (wait + 999_999) / TimeUnit.MILLISECONDS.toNanos(1)), ignored -> {
                flushTimerSet = false;
                flush();
            });
        }
    }

    private void sendAck(long tag, boolean multiple, int count) {
        long started = observers.active() ? System.nanoTime() : 0;
        try {
            channel.ack(tag, multiple);
        } catch (Exception e) {
            channelGone("ack", "delivery-tag " + tag + (multiple ? " (and the " + (count - 1) + " before it)" : ""), e);
        }
        if (started != 0) {
            observers.settled(queue, "ack", System.nanoTime() - started);
        }
        stats.ackFrameSent();
        pacing.sent(System.nanoTime());
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
