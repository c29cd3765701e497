package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.io.IOException;
import java.time.Duration;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * Carries out settlements ({@link SettlementPlan} decides them) on the channel the delivery came from, from the
 * subscriber's event loop: amqp-client writes the frame from the calling thread, so there is no hop to a worker.
 * <p>
 * The frames are {@link Acknowledgements}'. A copy or dead letter reaches the broker before its original
 * is acked (see {@link CopyOutlet}): on a channel of its own it is confirmed first; on the delivery's channel it is
 * published first, and the channel keeps that order. A crash in between duplicates, never loses. A confirmed one acks
 * the original when the broker confirms it, and requeues it when the broker refuses it.
 */
public final class Settler implements Settlements {

    private static final Logger LOG = Logger.getLogger(Settler.class);

    private final BrokerChannel channel;
    private final String queue;
    private final ContextInternal eventLoop;
    private final SettlementStats stats;
    private final HeldCopies delay;
    private final CopyDelay delays;
    private final String retryCountHeader;
    /** The user copies go under, and which deliveries the runtime wrote. */
    private final Provenance provenance;
    /** Null for a subscription that never publishes copies at once. */
    private final CopyPublisher copies;
    private final Clock clock;
    /** The acks and rejects. */
    private final Acknowledgements acks;
    /** How long a delivery whose copy could not be confirmed waits before it goes back to its queue. */
    private final Duration refusedPause;
    /** Settles what no copy can be made of. */
    private final AsReceived asReceived;
    /** What the broker's answer for a copy means for its original. */
    private final CopyAnswers copyAnswers;

    public Settler(BrokerChannel channel, String queue, Context eventLoop, SettlementStats stats,
            io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight inFlight,
            HeldCopies delay, CopyDelay delays, CopyPolicy policy, CopyOutlet outlet,
            io.quarkiverse.rabbitmq.subscriber.runtime.flow.UnsettledBytes unsettledBytes, Clock clock,
            Observers observers) throws IOException {
        this.clock = clock;
        this.channel = channel;
        this.queue = queue;
        this.eventLoop = (ContextInternal) eventLoop;
        this.stats = stats;
        this.acks = new Acknowledgements(channel, queue, this.eventLoop, stats, inFlight, unsettledBytes, observers, clock);
        this.delay = delay;
        this.delays = delays;
        this.retryCountHeader = policy.retryCountHeader();
        this.provenance = policy.provenance();
        this.refusedPause = policy.refusedPause();
        this.asReceived = new AsReceived(queue, policy.deadLetterQueue(), provenance, channel::frameMax,
                policy.refusedCopies(), acks, (delivery, deadLetters, properties, confirmed, refused) -> publish(
                        delivery, "", deadLetters, true, properties, confirmed, refused));
        MissingQueues missing = new MissingQueues(clock);
        this.copies = policy.publishesCopies() || policy.publishesOutputs()
                ? new CopyPublisher(outlet.channel(), outlet.own(), outlet.blocked(), queue, eventLoop, clock,
                        policy.confirmTimeout(), policy.refusedPause(), policy.confirmsCopies() || policy.publishesOutputs(),
                        observers, missing)
                : null;
        this.copyAnswers = new CopyAnswers(acks, asReceived, missing, clock, this.eventLoop, policy.refusedPause());
    }

    @Override
    public boolean resultsMayWait(int results) {
        return acks.resultsMayWait(results);
    }

    /**
     * A delivery arrived: its body counts against the subscription's bound on unsettled bytes, and it takes its place in
     * the ack window, in delivery order. On the client's reader thread.
     */
    @Override
    public void arrived(Unsettled delivery) {
        acks.arrived(delivery);
    }

    /** Carries out the settlement; returns false (and sends nothing) if the delivery was settled already. */
    @Override
    public boolean settle(Unsettled delivery, Settlement settlement) {
        if (!delivery.markSettled()) {
            LOG.errorf("Delivery %s on queue '%s' was already settled; ignoring the second settlement %s",
                    delivery.describe(), queue, settlement);
            return false;
        }
        stats.record(settlement, eventLoop.nettyEventLoop().inEventLoop());
        try {
            if (settlement instanceof Settlement.Reject reject) {
                acks.reject(delivery, reject.requeue());
            } else if (settlement instanceof Settlement.Keep) {
                // Its handler never ran (the kill switch paused the subscriber): back to the queue's head.
                acks.reject(delivery, true);
            } else if (settlement instanceof Settlement.Republish republish) {
                republish(delivery, republish);
            } else if (settlement instanceof Settlement.Again) {
                // RetryInPlace holds these and never settles one so (a bug if it did): back to the queue, not acked.
                LOG.errorf("Delivery %s on queue '%s' was to be handled again in place, not settled; requeueing it",
                        delivery.describe(), queue);
                acks.reject(delivery, true);
            } else {
                acks.ack(delivery);
            }
        } catch (RuntimeException e) {
            // Marked settled already: unless its slot left the window, give it back to the broker rather than leave it
            // in flight for good.
            LOG.errorf(e, "Carrying out %s for %s on queue '%s' failed; requeueing it", settlement, delivery.describe(),
                    queue);
            if (acks.inFlight(delivery)) {
                acks.reject(delivery, true);
            }
        }
        return true;
    }

    /**
     * Publishes the outputs of a delivery whose handler answered {@code ack}, with the delivery's trace, each
     * confirmed; the delivery itself is left unsettled: the answer says what to settle it with. The subscription must
     * have been built with outputs ({@link CopyPolicy#publishesOutputs()}).
     */
    @Override
    public java.util.concurrent.CompletionStage<PublishAnswer> publishOutputs(Unsettled delivery,
            java.util.List<Output> outputs) {
        boolean traced = delivery.observation() != io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation.NONE;
        java.util.List<Outgoing> group = new java.util.ArrayList<>(outputs.size());
        for (var output : outputs) {
            AMQP.BasicProperties properties = !traced ? output.properties()
                    : io.quarkiverse.rabbitmq.subscriber.runtime.observe.HeaderTables.changed(output.properties(),
                            delivery.observation()::propagate);
            group.add(new Outgoing(output.exchange(), output.routingKey(), output.mandatory(), properties,
                    output.body(), "the output", output.destination()));
        }
        return copies.publish(group, true, "the outputs' channel");
    }

    /**
     * Gives a delivery back to its queue after {@link CopyPolicy#refusedPause()} (what it published could not be
     * confirmed: its connection is down, and an immediate redelivery would only fail the same way); then runs
     * {@code settled}.
     */
    @Override
    public void requeueAfterPause(Unsettled delivery, Runnable settled) {
        clock.schedule(refusedPause, () -> eventLoop.runOnContext(ignored -> {
            if (settle(delivery, Settlement.REQUEUE)) {
                settled.run();
            }
        }));
    }

    /** Marks a delivery whose channel is gone as settled by the broker (it requeues it with the channel). */
    @Override
    public void abandoned(Unsettled delivery) {
        if (delivery.markSettled()) {
            acks.leftWithTheChannel(delivery);
        }
    }

    private void republish(Unsettled delivery, Settlement.Republish republish) {
        if (asReceived.refusedBefore(delivery, republish)) {
            return;
        }
        AMQP.BasicProperties properties = CopyProperties.of(delivery, provenance, retryCountHeader,
                republish.retryCount(), republish.failure(), republish.target() != Settlement.Target.COPY);
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
            CopyDelay.Placement placement = delays.place(properties, republish.delay());
            if (placement instanceof CopyDelay.Publish onBroker) {
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
            acks.ack(delivery);
            return;
        }
        publish(delivery, exchange, routingKey, mandatory, properties, republish.confirmed(),
                () -> asReceived.settle(delivery, republish, "the client refused to publish it"));
    }

    /** Publishes a copy or dead letter, then acks the original (a confirmed one: when the broker confirms it). */
    private void publish(Unsettled delivery, String exchange, String routingKey, boolean mandatory,
            AMQP.BasicProperties properties, boolean confirmed, Runnable refused) {
        Outgoing copy = new Outgoing(exchange, routingKey, mandatory, properties, delivery.body(),
                "the copy of " + delivery.describe(), "queue '" + routingKey + "'");
        PublishAnswer.whenAnswered(copies.publish(java.util.List.of(copy), confirmed, "the copies' channel"),
                answer -> copyAnswers.answered(delivery, routingKey, refused, answer));
    }
}
