package io.quarkiverse.rabbitmq.subscriber.runtime.assemble;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.chain.DeliveryChain;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.Codecs;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.DeliveryRoute;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.SubscriberConsumer;
import io.quarkiverse.rabbitmq.subscriber.runtime.delay.DelayStrategies;
import io.quarkiverse.rabbitmq.subscriber.runtime.delay.HeldBound;
import io.quarkiverse.rabbitmq.subscriber.runtime.delay.InServiceDelay;
import io.quarkiverse.rabbitmq.subscriber.runtime.devmode.ReloadOnMessage;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.UnsettledBytes;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.ApplicationObservers;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.ReplyTargets;
import io.quarkiverse.rabbitmq.subscriber.runtime.publish.BrokerRabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.runtime.publish.RabbitPublishers;
import io.quarkiverse.rabbitmq.subscriber.runtime.security.PermissionRefusal;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.CopyOutlet;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.CopyPolicy;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.RefusedCopies;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settler;
import io.quarkiverse.rabbitmq.subscriber.runtime.stream.StreamEnvironments;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.Attachment;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.HoldBacks;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.SubscriberSupervisor;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyAdmin;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;
import io.quarkus.runtime.LaunchMode;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;

/**
 * Builds what a subscription runs on: its supervisor, and on each channel the supervisor asks for, what a delivery
 * goes through (channel with its prefetch, settler, the stages of its {@link DeliveryChain}, consumer). Every part is
 * made here from the subscription's state and the application's beans, so no part looks another up.
 */
@Singleton
public class SubscriberAssembler {

    @Inject
    Vertx vertx;

    @Inject
    SubscriberConfig config;

    @Inject
    Codecs codecs;

    @Inject
    ApplicationObservers observers;

    /** Each subscription's broker's session: its connections and clock. */
    @Inject
    BrokerSessions sessions;

    @Inject
    TopologyAdmin topologyAdmin;

    @Inject
    DeliveryCounters counters;

    /** Stream subscriptions' channels: the stream protocol's consumer beside an AMQP channel. */
    @Inject
    StreamEnvironments streams;

    /**
     * Publish the held copies when their delay is over, on the publishing connection of the subscription's broker, and
     * the outputs a handler sends to another broker.
     */
    @Inject
    RabbitPublishers publishers;

    /** The long-lived state of a subscription, with its supervisor; {@code consumingAgain} is told after each loss. */
    public SubscriptionState assemble(SubscriberDefinition definition, TopologyPlan topology, Runnable consumingAgain) {
        String queue = definition.subscription.queue;
        BrokerSession session = sessions.of(definition.subscription.broker);
        BrokerRabbitPublisher publisher = publishers.of(definition.subscription.broker);
        // First what holds the subscriber back, then the parts that do, then its supervisor: each is made whole.
        HoldBacks holdBacks = new HoldBacks();
        SubscriptionState.Parts parts = new SubscriptionState.Parts(definition,
                KillSwitch.of(definition.subscription, session.clock(), holdBacks),
                new InServiceDelay(queue, session.clock(), publisher::publishConfirmed, heldBound(),
                        holdBacks.under("held copies"), new io.quarkiverse.rabbitmq.subscriber.runtime.delay.RefusedCopyParking(
                                definition.subscription, publisher::publishConfirmed, session::publishingConnection)),
                new UnsettledBytes(queue, maxUnsettledBytes(),
                        definition.prefetch(config.prefetch()),
                        holdBacks.under("unsettled bytes"), session.clock()),
                new RefusedCopies());
        TopologyPlan owned = topology.ownedBy(definition.subscription);
        ReplyTargets replies = ReplyTargets.of(topology, config.replies().allowedQueues().orElse(List.of()));
        return new SubscriptionState(parts, new SubscriberSupervisor(definition.method, queue,
                new io.quarkiverse.rabbitmq.subscriber.runtime.supervise.Subscribing() {
                    @Override
                    public BrokerConnection connection() {
                        return session.connection();
                    }

                    @Override
                    public void prepareQueues(BrokerConnection connection) throws Exception {
                        topologyAdmin.prepare(connection, owned, definition.subscription.broker);
                    }

                    @Override
                    public Attachment attach(BrokerConnection connection, SubscriberSupervisor supervisor,
                            long generation) throws Exception {
                        if (definition.subscription.partitioned() && !definition.subscription.stream()) {
                            // Holds back by closing its channel: see ReopeningAttachment.
                            return io.quarkiverse.rabbitmq.subscriber.runtime.supervise.ReopeningAttachment.open(
                                    () -> SubscriberAssembler.this.attach(session, connection, parts, supervisor,
                                            generation, replies));
                        }
                        return SubscriberAssembler.this.attach(session, connection, parts, supervisor, generation,
                                replies);
                    }

                    @Override
                    public void consumingAgain() {
                        consumingAgain.run();
                    }
                }, session.backoff(), session.clock(), offTheClientThread(), holdBacks));
    }

    /** Opens a channel for the subscriber and consumes on it; losses are reported to its supervisor. */
    private Attachment attach(BrokerSession session, BrokerConnection connection, SubscriptionState.Parts parts,
            SubscriberSupervisor supervisor, long generation, ReplyTargets replies) throws Exception {
        SubscriberDefinition definition = parts.definition();
        String queue = definition.subscription.queue;
        UnsettledBytes unsettled = parts.unsettledBytes();
        BrokerChannel channel = connection.createChannel();
        if (definition.subscription.stream()) {
            try {
                channel = streams.channel(session, channel, queue, definition.subscription.superStream());
            } catch (RuntimeException e) {
                channel.close();
                throw e;
            }
        }
        channel.qos(unsettled.prefetch());
        // Read at each attachment: a credentials provider may log in as another user after a reconnection.
        Provenance provenance = Provenance.of(connection.user());
        // Each subscriber gets an event-loop context; Vert.x spreads them over its event loops in turn, so subscribers
        // do not all serialize behind one loop. Its settlements all happen on this context's thread.
        Context eventLoop = ((VertxInternal) vertx).createEventLoopContext();
        CopyOutlet outlet;
        try {
            outlet = copyOutlet(session, definition, channel, connection, supervisor, generation);
        } catch (Exception | Error e) {
            channel.close();
            throw e;
        }
        Settler settler = new Settler(channel, queue, eventLoop, counters.stats(), counters.inFlight(),
                parts.heldCopies(), DelayStrategies.of(definition.subscription),
                CopyPolicy.of(definition, config.retryCountHeader(), config.publisher().confirmTimeout(), provenance,
                        config.refusedCopyPause(), parts.refusedCopies()),
                outlet, unsettled, session.clock(), observers.get());
        // Outputs may name another broker only where there is one.
        io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements settlements = definition.outputsIndex < 0
                || sessions.all().size() == 1 ? settler
                        : new io.quarkiverse.rabbitmq.subscriber.runtime.output.OutputsAcrossBrokers(settler,
                                definition.subscription.broker,
                                (broker, exchange, routingKey, mandatory, properties, body) -> publishers.of(broker)
                                        .publishConfirmed(exchange, routingKey, mandatory, properties, body),
                                eventLoop);
        DeliveryRoute route = DeliveryChain.of(definition, codecs.decoder(definition), codecs.encoder(), replies,
                settlements, eventLoop, observers.get(), counters.outcomes(), parts.killSwitch(), session.clock(),
                counters.inFlight());
        SubscriberConsumer consumer = new SubscriberConsumer(queue, route, counters.inFlight(),
                config.retryCountHeader(), provenance, reason -> supervisor.lost(generation, reason),
                LaunchMode.current() == LaunchMode.DEVELOPMENT ? ReloadOnMessage.scan() : null);
        channel.onBrokerClose(reason -> supervisor.lost(generation, "the broker closed its channel: "
                + reason.replyText()));
        BrokerChannel ownCopies = outlet.own() ? outlet.channel() : null;
        try {
            // With a partition's claim, if this instance made one.
            Map<String, Object> arguments = supervisor.consumerArguments(definition.subscription.consumerArguments);
            return Attachment.of(channel, ownCopies, consumer, consumer::stopTakingDeliveries,
                    channel.consume(queue, consumer, arguments), unsettled::prefetch, arguments);
        } catch (BrokerException e) {
            Attachment.closeBoth(channel, ownCopies);
            IllegalStateException refused = PermissionRefusal.of(e, "read", "queue '" + queue + "'", "to consume it");
            throw refused != null ? refused : e;
        } catch (Exception | Error e) {
            Attachment.closeBoth(channel, ownCopies);
            throw e;
        }
    }

    /**
     * Where the subscriber's copies and outputs go ({@code quarkus.rabbitmq-subscriber.copy-channel}): a channel of their
     * own on the publishing connection, whose refusals (a missing write permission closes it) are the subscriber's
     * losses as the delivery channel's are; or the delivery's channel, and for a subscription that publishes neither,
     * that too.
     */
    private CopyOutlet copyOutlet(BrokerSession session, SubscriberDefinition definition, BrokerChannel channel,
            BrokerConnection connection,
            SubscriberSupervisor supervisor, long generation) throws Exception {
        boolean publishes = definition.subscription.publishesCopies() || definition.outputsIndex >= 0;
        if (!publishes || config.copyChannel() == SubscriberConfig.CopyChannel.DELIVERY_CHANNEL) {
            return new CopyOutlet(channel, false, () -> connection.blockedBecause().isPresent());
        }
        BrokerConnection publishing = session.publishingConnection();
        BrokerChannel copies = publishing.createChannel();
        copies.onBrokerClose(reason -> supervisor.copiesLost(generation,
                "the broker closed the channel of its copies: " + reason.replyText()));
        return new CopyOutlet(copies, true, () -> publishing.blockedBecause().isPresent());
    }

    /** {@code quarkus.rabbitmq-subscriber.max-unsettled-bytes}; a tenth of the heap by default. */
    private long maxUnsettledBytes() {
        return Math.max(1, config.maxUnsettledBytes().map(size -> size.asLongValue())
                .orElse(Runtime.getRuntime().maxMemory() / 10));
    }

    /** {@code quarkus.rabbitmq-subscriber.in-service.*}; the bytes default to a twentieth of the heap. */
    private HeldBound heldBound() {
        long bytes = config.inService().maxHeldBytes().map(size -> size.asLongValue())
                .orElse(Runtime.getRuntime().maxMemory() / 20);
        return new HeldBound(Math.max(1, config.inService().maxHeld()), Math.max(1, bytes));
    }

    /** Runs a broker callback's work on a worker: the client's thread must go back to reading frames at once. */
    private Executor offTheClientThread() {
        return work -> vertx.executeBlocking(() -> {
            work.run();
            return null;
        }, false);
    }
}
