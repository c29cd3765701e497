package io.quarkiverse.rabbitmq.subscriber.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.DeliveryCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.LiveSubscriptions;
import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.SubscriberAssembler;
import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.SubscriptionState;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.ApplicationObservers;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LiveFigures;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.SubscriberSupervisor;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.UnreadableMessageFinder;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.DeclaringElsewhere;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyAdmin;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * The subscribers' start and stop, in order: the queues are declared (or checked) before the application's own
 * startup observers run, so one that publishes at startup reaches them; consuming starts after those observers, once
 * the application is ready for messages. A stop stops taking deliveries, lets the handlers in flight finish and
 * settle, publishes the held copies, then closes the subscribers and the broker session.
 * <p>
 * Each subscriber's life after startup (a cut, a cancellation, consuming again) is its {@link SubscriberSupervisor}'s:
 * explicit states, and steps that wait for the broker run on the subscriber's own serial lane, under no lock. This
 * object's lock guards the first start and {@code prepareTopology()}, before which no subscriber exists, and
 * {@code stop()}'s closing step, not its wait for the handlers in flight (the stop is marked in
 * {@link LiveSubscriptions}, where the subscriptions are registered). No broker callback takes it.
 * <p>
 * The connection's losses and recoveries reach the subscribers through {@link ConnectionEventRelay}; the startup's
 * lines about each subscription are {@link SubscriptionNotices}'s.
 */
@Singleton
public class SubscriberEngine {

    private static final Logger LOG = Logger.getLogger(SubscriberEngine.class);

    @Inject
    SubscriberConfig config;

    /** Every broker's session; the subscriptions on each are started on its own. */
    @Inject
    BrokerSessions sessions;

    @Inject
    TopologyAdmin topologyAdmin;

    @Inject
    SubscriberAssembler assembler;

    @Inject
    DeliveryCounters counters;

    /** Metrics and tracing, where the application has them. */
    @Inject
    ApplicationObservers observers;

    /** The live subscriptions: registered here, read by the status, the controls and the Dev UI. */
    @Inject
    LiveSubscriptions live;

    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.spread.PartitionSpreading spreading;

    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.stream.StreamEnvironments streams;
    private List<SubscriberDefinition> definitions = List.of();
    /** What each broker with subscriptions must hold, by the broker's name. */
    private Map<String, TopologyPlan> topologies = Map.of();
    private boolean topologyReady;
    /** Looks for consumers RabbitMQ stopped delivering to; null until started, or when turned off. */
    private volatile io.quarkiverse.rabbitmq.subscriber.runtime.supervise.StallWatch stalls;

    /** The synthetic bean of what the build found (see {@code SubscriberRecorder}). */
    @Inject
    void define(FoundSubscribers found) {
        this.definitions = found.definitions();
        this.topologies = found.topologies();
    }

    void onStartDeclare(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event) throws Exception {
        prepareTopology();
    }

    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_AFTER) StartupEvent event) throws Exception {
        start();
    }

    void onStop(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent event) {
        stop();
    }

    synchronized void prepareTopology() throws Exception {
        if (definitions.isEmpty() || topologyReady) {
            return;
        }
        try {
            for (Map.Entry<String, TopologyPlan> broker : topologies.entrySet()) {
                prepareTopology(sessions.of(broker.getKey()), broker.getValue());
            }
            topologyReady = true;
        } catch (Exception | Error e) {
            // Quarkus does not fire ShutdownEvent for an application that failed to start: release everything here.
            stop();
            throw e;
        }
    }

    /** Declares (or checks) what one broker's subscriptions need there, and that they may publish what they must. */
    private void prepareTopology(BrokerSession session, TopologyPlan topology) throws Exception {
        List<SubscriberDefinition> here = on(session);
        refuseWhatTheBrokerCannotDo(session, here);
        // A node cut off from its cluster's majority cannot declare: the connection goes to another one.
        DeclaringElsewhere.declare(() -> topologyAdmin.prepare(session.connection(), topology, session.name()),
                session.nodeCount(), new DeclaringElsewhere.Reconnection() {
                    @Override
                    public boolean awaitOpen() throws InterruptedException {
                        return session.awaitOpen();
                    }

                    @Override
                    public String describe() {
                        return session.connection().remoteNode();
                    }
                });
        io.quarkiverse.rabbitmq.subscriber.runtime.security.PublishPermission.check(session.connection(),
                here.stream().filter(definition -> publishesThroughDefaultExchange(definition))
                        .map(definition -> definition.subscription.queue).sorted().toList(),
                here.stream().filter(definition -> !publishesThroughDefaultExchange(definition))
                        .map(definition -> definition.subscription.queue).sorted().toList());
    }

    /** The subscribers on a broker. */
    private List<SubscriberDefinition> on(BrokerSession session) {
        return definitions.stream().filter(definition -> definition.subscription.broker.equals(session.name()))
                .toList();
    }

    /** Before anything is declared: a subscription asking for what this broker's version does not have. */
    private void refuseWhatTheBrokerCannotDo(BrokerSession session, List<SubscriberDefinition> here) {
        var broker = io.quarkiverse.rabbitmq.subscriber.runtime.broker.ServerVersion.of(
                session.connection().serverVersion());
        List<String> problems = io.quarkiverse.rabbitmq.subscriber.runtime.subscription.ServerRules.problems(
                here.stream().map(definition -> definition.subscription).toList(), broker);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("The subscribers cannot start on " + broker + " at "
                    + session.connection().describe() + ":\n  - " + String.join("\n  - ", problems));
        }
    }

    /**
     * Whether a subscriber publishes copies or dead letters through the default exchange whatever its handler answers
     * (a cap, a delay on the broker); the others do only for a {@code retryAfter} or an output sent to a queue.
     */
    private static boolean publishesThroughDefaultExchange(SubscriberDefinition definition) {
        return definition.subscription.publishesCopies();
    }

    synchronized void start() throws Exception {
        if (definitions.isEmpty() || !live.all().isEmpty()) {
            return;
        }
        prepareTopology();
        List<String> consuming = new ArrayList<>();
        try {
            for (Map.Entry<String, TopologyPlan> broker : topologies.entrySet()) {
                BrokerSession session = sessions.of(broker.getKey());
                List<SubscriberDefinition> here = on(session);
                BrokerConnection connection = session.connection();
                ConnectionEventRelay relay = new ConnectionEventRelay(session, live, here.size(),
                        new UnreadableMessageFinder(session.clock(), Duration.ofMillis(500)));
                session.onUnreadableMessage(relay::unreadableMessage);
                session.onConnectionEvents(relay);
                for (SubscriberDefinition definition : here) {
                    SubscriptionState state = assembler.assemble(definition, broker.getValue(),
                            relay::logWhenAllConsume);
                    // Listed before it consumes: a failure further on stops it with the others.
                    live.add(state);
                    state.supervisor().start(connection);
                }
                consuming.add(connection.describe() + BrokerSessions.named(session.name()) + ": " + here.stream()
                        .map(definition -> definition.subscription.queue).toList());
            }
        } catch (Exception | Error e) {
            // Quarkus does not fire ShutdownEvent for an application that failed to start: release everything here.
            stop();
            throw e;
        }
        live.started();
        spreading.start(definitions);
        List<SubscriptionState> subscriptions = live.all();
        if (!config.stallTimeout().isZero()) {
            // Not watched: a stream's reader (its client has credits and offsets, not queue counts), and a quorum queue
            // that holds failed deliveries back on the server (RabbitMQ 4.3's x-delayed-retry-*), whose held messages
            // may wait longer than the timeout with nothing wrong.
            List<SubscriptionState> queues = subscriptions.stream()
                    .filter(state -> !state.definition().subscription.stream()
                            && !state.definition().subscription.serverDelaysRetries())
                    .toList();
            stalls = new io.quarkiverse.rabbitmq.subscriber.runtime.supervise.StallWatch(clock(),
                    config.stallTimeout(), () -> queues);
            stalls.start();
        }
        // Every stream read, a super stream's partitions each, with the subscription that reads it.
        Map<String, String> streamOf = new TreeMap<>();
        Map<String, String> superStreamOf = new TreeMap<>();
        for (SubscriberDefinition definition : definitions) {
            io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec spec = definition.subscription;
            if (spec.superStream()) {
                for (int index = 0; index < spec.partitioning.count; index++) {
                    String partition = io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SuperStream
                            .partition(spec.queue, index);
                    streamOf.put(partition, spec.queue);
                    superStreamOf.put(partition, spec.queue);
                }
            } else if (spec.stream()) {
                streamOf.put(spec.queue, spec.queue);
            }
        }
        // The held-copies gauge only for the subscriptions that can hold any; the paused one for every subscription.
        observers.get().watch(new LiveFigures(subscriptions.stream().map(SubscriptionState::queue).sorted().toList(),
                definitions.stream().filter(SubscriberDefinition::holdsCopies)
                        .map(definition -> definition.subscription.queue).sorted().toList(),
                live::heldCopies, counters.inFlight()::count,
                queue -> live.of(queue)
                        .map(state -> state.supervisor().paused())
                        .orElse(false),
                java.util.stream.Stream.concat(definitions.stream()
                        .filter(definition -> definition.subscription.partitioned() && !definition.subscription.stream())
                        .map(definition -> definition.subscription.queue), superStreamOf.keySet().stream())
                        .sorted().toList(),
                queue -> spreading.activeOn(queue) || superStreamOf.containsKey(queue)
                        && streams.activeOn(superStreamOf.get(queue), queue),
                new ArrayList<>(streamOf.keySet()),
                stream -> streams.lag(streamOf.get(stream), stream)));
        LOG.infof("Consuming %d RabbitMQ queue(s) on %s", subscriptions.size(), String.join("; and on ", consuming));
        SubscriptionNotices.log(definitions);
    }

    /**
     * Graceful stop; safe to call more than once. The wait for handlers in flight happens outside the lock, so a
     * handler that needs the connection (to publish) can still get it meanwhile.
     */
    public void stop() {
        if (!live.stop()) {
            return;
        }
        // The other instances take this one's partitions over at once, rather than after the liveness window.
        spreading.stop();
        if (stalls != null) {
            stalls.stop();
        }
        // Each step reads the list anew: a start still running adds to it until it sees the stop.
        for (SubscriptionState state : live.all()) {
            state.supervisor().stopTaking();
        }
        Duration timeout = config.shutdownTimeout();
        try {
            // Nothing in flight: no broker may have been chosen, and with it no clock.
            int left = counters.inFlight().count() == 0 ? 0 : counters.inFlight().awaitZero(timeout, clock());
            if (left > 0) {
                LOG.warnf("%d delivery(ies) still in flight after %s; RabbitMQ requeues them as the channels close", left,
                        timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (SubscriptionState state : live.all()) {
            state.releaseHeldCopies();
        }
        synchronized (this) {
            for (SubscriptionState state : live.all()) {
                state.supervisor().close();
            }
            sessions.close();
        }
    }

    /**
     * The runtime's clock: the default broker's session's, which is every in-process broker's one clock, or the wall
     * clock.
     */
    private io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock clock() {
        BrokerSession first = sessions.of(topologies.isEmpty() ? io.quarkiverse.rabbitmq.subscriber.Broker.DEFAULT
                : topologies.keySet().iterator().next());
        return first.clock();
    }
}
