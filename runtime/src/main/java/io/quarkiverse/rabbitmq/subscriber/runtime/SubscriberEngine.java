package io.quarkiverse.rabbitmq.subscriber.runtime;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.VirtualClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.WallClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberBuildTimeConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.Backoff;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerAddress;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerChoice;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerConnector;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.Connections;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.HandlerDispatcher;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InFlight;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.SubscriberConsumer;
import io.quarkiverse.rabbitmq.subscriber.runtime.delay.DelayStrategy;
import io.quarkiverse.rabbitmq.subscriber.runtime.delay.InServiceDelay;
import io.quarkiverse.rabbitmq.subscriber.runtime.devmode.ReloadOnMessage;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.SettlementStats;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settler;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.Attachment;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.SubscriberSupervisor;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyDeclarer;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;

/**
 * Owns the connections and the consumers: starts them once the application has started, and on shutdown stops taking
 * deliveries, lets the handlers in flight finish and settle, then closes channels and connections.
 * <p>
 * Each subscriber's life after startup (a cut, a cancellation, consuming again) is its {@link SubscriberSupervisor}'s:
 * explicit states, and steps that wait for the broker run on the subscriber's own serial lane, under no lock. The
 * engine's lock guards opening the connection, the first start and {@code prepareTopology()} (the first declaration
 * or check of the queues), before which no subscriber exists, and {@code stop()}'s two short steps (marking the stop;
 * closing the supervisors and connections), not its wait for the handlers in flight. No broker callback takes it (a
 * reader thread waiting for a lock whose holder waits for a reply the reader would read freezes the whole connection).
 */
@Singleton
public class SubscriberEngine implements Connections {

    private static final Logger LOG = Logger.getLogger(SubscriberEngine.class);

    @Inject
    Vertx vertx;

    @Inject
    SubscriberConfig config;

    @Inject
    SubscriberBuildTimeConfig buildTimeConfig;

    @Inject
    ObjectMapper objectMapper;

    /** The runtime's publisher, for held copies; looked up when first needed (it depends on this engine). */
    @Inject
    jakarta.enterprise.inject.Instance<io.quarkiverse.rabbitmq.subscriber.runtime.publish.BrokerRabbitPublisher> publisher;

    /** Metrics and tracing, where the application has them. */
    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.observe.ApplicationObservers observers;

    private final SettlementStats stats = new SettlementStats();
    /** Every delivery's fate by queue, for the Dev UI. */
    private final io.quarkiverse.rabbitmq.subscriber.runtime.observe.Outcomes outcomes = new io.quarkiverse.rabbitmq.subscriber.runtime.observe.Outcomes();
    private final InFlight inFlight = new InFlight();
    /** One per subscriber once started; replaced, never changed. */
    private volatile List<SubscriberSupervisor> supervisors = List.of();
    /** A reconnection whose "every subscriber consumes again" line is still to be logged, or null. */
    private final java.util.concurrent.atomic.AtomicReference<String> reconnectedTo = new java.util.concurrent.atomic.AtomicReference<>();
    private List<SubscriberDefinition> definitions = List.of();
    private TopologyPlan topology = new TopologyPlan(List.of(), List.of(), List.of());
    /**
     * Each subscription's in-service delayed copies. They belong to the subscription, not to a channel: a resubscription
     * or a reconnection keeps them; a graceful stop publishes them.
     */
    private final Map<SubscriberDefinition, InServiceDelay> inServiceDelays = new ConcurrentHashMap<>();
    private volatile BrokerConnection connection;
    /** The publisher's own connection: RabbitMQ blocks a publishing connection under flow control or an alarm. */
    private volatile BrokerConnection publishingConnection;
    private final Object publishingLock = new Object();
    private BrokerAddress address;
    private volatile InProcessServer inProcessServer;
    private volatile Clock clock;
    /** Guards only the lazy creation of the clock; never held across broker I/O, so any thread may take it. */
    private final Object clockLock = new Object();
    /** Reconnection and resubscription waits ({@code quarkus.rabbitmq-subscriber.recovery.*}). */
    private volatile Backoff backoff;
    /** Why the subscribers' connection is down, or null. */
    private volatile String connectionDown;
    /** Set once every subscriber consumed for the first time. */
    private volatile boolean started;
    /** Set when a stop begins: no more subscribing. */
    private volatile boolean stopping;
    /** Set when the connection is closed for good. */
    private volatile boolean stopped;

    /** The synthetic bean of what the build found (see {@code SubscriberRecorder}). */
    @Inject
    void define(Subscriptions subscriptions) {
        this.definitions = subscriptions.definitions();
        this.topology = subscriptions.topology();
    }

    /** The subscribers the build found. */
    public List<SubscriberDefinition> definitions() {
        return definitions;
    }

    /** What the subscriptions need on the broker, as computed at build time. */
    public TopologyPlan topology() {
        return topology;
    }

    /**
     * The queues exist before the application's own startup observers run, so one that publishes at startup reaches
     * them; consuming starts after those observers, once the application is ready for messages.
     */
    void onStartDeclare(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event) throws Exception {
        prepareTopology();
    }

    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_AFTER) StartupEvent event) throws Exception {
        start();
    }

    private boolean topologyReady;

    synchronized void prepareTopology() throws Exception {
        if (definitions.isEmpty() || topologyReady) {
            return;
        }
        try {
            prepareQueues(connection(), topology);
            topologyReady = true;
        } catch (Exception | Error e) {
            // Quarkus does not fire ShutdownEvent for an application that failed to start: release everything here.
            stop();
            throw e;
        }
    }

    void onStop(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent event) {
        stop();
    }

    /** The shared connection, opened on first use, to the broker {@code quarkus.rabbitmq-subscriber.broker} names. */
    public BrokerConnection connection() {
        // Without the lock once open: a publisher must not wait behind a resubscription's network calls.
        BrokerConnection open = connection;
        if (open != null && !stopped) {
            return open;
        }
        return openConnection();
    }

    private synchronized BrokerConnection openConnection() {
        if (stopped) {
            throw new IllegalStateException("The RabbitMQ subscriber runtime has stopped");
        }
        if (connection == null) {
            BrokerConnection opened = open();
            opened.onConnectionEvents(new BrokerConnection.ConnectionListener() {
                // On the client's threads, in the order they happen: neither waits for anything (the supervisors only
                // queue a step), and handing them to an unordered pool could let "recovered" overtake "lost".
                @Override
                public void lost(String reason) {
                    connectionLost(opened, reason);
                }

                @Override
                public void recovered() {
                    connectionRecovered(opened);
                }
            });
            connection = opened;
            LOG.debugf("Connected to %s", connection.describe());
        }
        return connection;
    }

    /**
     * The publisher's connection, opened on first use, to the same broker as the subscribers'. Kept apart because
     * RabbitMQ blocks every connection that publishes while it is low on memory or disk: consumers on it could not
     * ack any more.
     */
    @Override
    public BrokerConnection publishingConnection() {
        BrokerConnection open = publishingConnection;
        if (open != null && !stopped) {
            return open;
        }
        connection();
        synchronized (publishingLock) {
            if (stopped) {
                throw new IllegalStateException("The RabbitMQ subscriber runtime has stopped");
            }
            if (publishingConnection == null) {
                publishingConnection = inProcessServer != null ? inProcessServer.connect()
                        : BrokerConnector.connect(address, config.connectionName() + "-publisher", config.nio(),
                                backoff(), maxMessageSize());
            }
            return publishingConnection;
        }
    }

    private BrokerConnection open() {
        if (config.broker() == SubscriberConfig.BrokerKind.IN_PROCESS) {
            return startInProcess().connect();
        }
        address = BrokerAddress.resolve(config.url(), config.username(), config.password(), ConfigProvider.getConfig());
        if (config.addresses().isPresent()) {
            address = address.withNodes(config.addresses().get());
        }
        try {
            return BrokerConnector.connect(address, config.connectionName(), config.nio(), backoff(), maxMessageSize());
        } catch (IllegalStateException e) {
            if (config.broker() == SubscriberConfig.BrokerKind.RABBITMQ) {
                throw e;
            }
            String reason = e.getCause() == null ? e.getMessage() : e.getCause().toString();
            LOG.warn(BrokerChoice.fallbackWarning(config.broker(), LaunchMode.current(), address.describe(), reason));
            return startInProcess().connect();
        }
    }

    private InProcessServer startInProcess() {
        SubscriberConfig.ClockMode mode = config.inProcess().clock().orElse(
                LaunchMode.current() == LaunchMode.TEST ? SubscriberConfig.ClockMode.PAUSED : SubscriberConfig.ClockMode.WALL);
        String version = config.inProcess().serverVersion().trim();
        if (!version.equals("3.10") && !version.equals("4") && !version.startsWith("4.")) {
            throw new IllegalStateException("quarkus.rabbitmq-subscriber.in-process.server-version=" + version
                    + " is not supported: use 3.10 or 4");
        }
        Clock serverClock = mode == SubscriberConfig.ClockMode.PAUSED ? new VirtualClock(System.currentTimeMillis())
                : new WallClock(vertx);
        synchronized (clockLock) {
            clock = serverClock;
        }
        inProcessServer = new InProcessServer(serverClock,
                version.equals("3.10") ? InProcessServer.Version.V3_10 : InProcessServer.Version.V4);
        return inProcessServer;
    }

    private int maxMessageSize() {
        long bytes = config.maxMessageSize().asLongValue();
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, bytes));
    }

    private Backoff backoff() {
        Backoff current = backoff;
        if (current == null) {
            current = new Backoff(config.recovery().initialDelay(), config.recovery().maxDelay(),
                    config.recovery().jitter());
            backoff = current;
        }
        return current;
    }

    /** The in-process broker, when this application uses it. */
    public Optional<InProcessServer> inProcessServer() {
        if (connection == null && !stopped) {
            connection();
        }
        return Optional.ofNullable(inProcessServer);
    }

    /** The clock of the runtime's timers: the in-process broker's when it is in use, else the wall clock. */
    public Clock clock() {
        Clock current = clock;
        if (current != null) {
            return current;
        }
        synchronized (clockLock) {
            if (clock == null) {
                clock = new WallClock(vertx);
            }
            return clock;
        }
    }

    /** Runs a broker callback's work on a worker: the client's thread must go back to reading frames at once. */
    private void offTheClientThread(Runnable work) {
        vertx.executeBlocking(() -> {
            work.run();
            return null;
        }, false);
    }

    public SettlementStats stats() {
        return stats;
    }

    /** Each queue's deliveries by what became of them (ack, retry, ..., failure); for the Dev UI and tests. */
    public Map<String, Map<String, Long>> outcomes() {
        return outcomes.snapshot();
    }

    /** Deliveries handed to handlers and not settled yet. */
    public int inFlight() {
        return inFlight.count();
    }

    synchronized void start() throws Exception {
        if (definitions.isEmpty() || !supervisors.isEmpty()) {
            return;
        }
        prepareTopology();
        try {
            BrokerConnection connection = connection();
            List<SubscriberSupervisor> started = new ArrayList<>();
            for (SubscriberDefinition definition : definitions) {
                SubscriberSupervisor supervisor = supervisorOf(definition);
                // Listed before it consumes: a failure further on stops it with the others.
                started.add(supervisor);
                supervisors = List.copyOf(started);
                supervisor.start(connection);
            }
        } catch (Exception | Error e) {
            // Quarkus does not fire ShutdownEvent for an application that failed to start: release everything here.
            stop();
            throw e;
        }
        started = true;
        // The held-copies gauge only for the subscriptions that can hold any.
        observers.get().watch(definitions.stream().filter(SubscriberDefinition::holdsCopies)
                .map(definition -> definition.subscription.queue).toList(), this::heldCopies, this::inFlight);
        LOG.infof("Consuming %d RabbitMQ queue(s) on %s: %s", supervisors.size(), connection.describe(),
                supervisors.stream().map(SubscriberSupervisor::queue).toList());
        for (SubscriberDefinition definition : definitions) {
            if (definition.holdsCopies()) {
                LOG.infof("Queue '%s': retryAfter copies wait in this service (delay IN_SERVICE). A graceful stop "
                        + "publishes them at once; a crash loses those still waiting. To keep them in RabbitMQ, use "
                        + "delay = DLX_TTL", definition.subscription.queue);
            }
            if (definition.subscription.quorum() && !definition.subscription.serverCounts()) {
                LOG.warnf("Queue '%s' is a quorum queue without maxAttempts or deliveryLimit: a failing message is "
                        + "requeued and the server counts its deliveries. Unless the queue has its own "
                        + "x-delivery-limit, RabbitMQ 4 drops it (or dead-letters it through the queue's own route) "
                        + "after 20 redeliveries, and RabbitMQ 3 redelivers it for ever", definition.subscription.queue);
            }
        }
    }

    /**
     * Whether the subscribers can take messages now, and if not, why: by what (the connection, a queue, the
     * publisher) the reasons. Read by the readiness health check.
     */
    public Map<String, String> notReady() {
        Map<String, String> problems = new java.util.TreeMap<>();
        if (stopping) {
            problems.put("subscribers", "stopped");
            return problems;
        }
        if (!definitions.isEmpty() && !started) {
            problems.put("subscribers", "starting");
        }
        String down = connectionDown;
        if (down != null) {
            problems.put("connection", down);
        }
        if (started) {
            for (SubscriberSupervisor supervisor : supervisors) {
                String why = supervisor.notConsumingBecause();
                if (why != null) {
                    problems.put("queue " + supervisor.queue(), "not consuming: " + why);
                }
            }
        }
        BrokerConnection publishing = publishingConnection;
        if (publishing != null) {
            publishing.blockedBecause().ifPresent(reason -> problems.put("publisher",
                    "RabbitMQ blocks publishing (" + reason + "): publishes wait up to their confirm timeout"));
        }
        return problems;
    }

    /** Delayed copies the service holds for a subscription ({@code IN_SERVICE}), by queue; for tests and the Dev UI. */
    public int heldCopies(String queue) {
        return inServiceDelays.entrySet().stream().filter(entry -> entry.getKey().subscription.queue.equals(queue))
                .mapToInt(entry -> entry.getValue().pending()).sum();
    }

    /** A subscriber's supervisor: it subscribes through the engine's connection and topology. */
    private SubscriberSupervisor supervisorOf(SubscriberDefinition definition) {
        SubscriberSupervisor[] self = new SubscriberSupervisor[1];
        self[0] = new SubscriberSupervisor(definition.method, definition.subscription.queue,
                new SubscriberSupervisor.Subscribing() {
                    @Override
                    public BrokerConnection connection() {
                        return SubscriberEngine.this.connection();
                    }

                    @Override
                    public void prepareQueues(BrokerConnection connection) throws Exception {
                        SubscriberEngine.this.prepareQueues(connection, topology.ownedBy(definition.subscription));
                    }

                    @Override
                    public Attachment attach(BrokerConnection connection, long generation) throws Exception {
                        return SubscriberEngine.this.attach(connection, definition, self[0], generation);
                    }

                    @Override
                    public void consumingAgain() {
                        logWhenAllConsume();
                    }
                }, backoff(), clock(), this::offTheClientThread);
        return self[0];
    }

    /** Opens a channel for the subscriber and consumes on it; losses are reported to its supervisor. */
    private Attachment attach(BrokerConnection connection, SubscriberDefinition definition,
            SubscriberSupervisor supervisor, long generation) throws Exception {
        BrokerChannel channel = connection.createChannel();
        channel.qos(definition.subscription.prefetch > 0 ? definition.subscription.prefetch : config.prefetch());
        // Each subscriber gets an event-loop context; Vert.x spreads them over its event loops in turn, so subscribers
        // do not all serialize behind one loop. Its settlements all happen on this context's thread.
        Context eventLoop = ((VertxInternal) vertx).createEventLoopContext();
        InServiceDelay delay = inServiceDelays.computeIfAbsent(definition,
                ignored -> new InServiceDelay(definition.subscription.queue, clock(),
                        (exchange, routingKey, properties, body) -> publisher.get().publishConfirmed(exchange, routingKey,
                                properties, body)));
        Settler settler = new Settler(channel, definition.subscription.queue, eventLoop, stats, inFlight::end, delay,
                DelayStrategy.of(definition.subscription), config.retryCountHeader(),
                definition.subscription.deadLetter, definition.subscription.publishesCopies(),
                definition.subscription.retryPublish == io.quarkiverse.rabbitmq.subscriber.RetryPublish.CONFIRMED, clock(),
                config.publisher().confirmTimeout(), observers.get());
        HandlerDispatcher dispatcher = new HandlerDispatcher(definition, PayloadDecoder.of(definition, objectMapper),
                settler, eventLoop, observers.get(), outcomes, supervisor::halt);
        SubscriberConsumer consumer = new SubscriberConsumer(definition.subscription.queue, eventLoop, dispatcher, inFlight,
                config.retryCountHeader(),
                reason -> supervisor.lost(generation, reason),
                LaunchMode.current() == LaunchMode.DEVELOPMENT ? ReloadOnMessage.scan() : null);
        channel.onBrokerClose(reason -> supervisor.lost(generation, "the broker closed its channel: "
                + reason.replyText()));
        try {
            return Attachment.of(channel, consumer, channel.consume(definition.subscription.queue, consumer));
        } catch (Exception | Error e) {
            channel.close();
            throw e;
        }
    }

    /** One WARN per cut; amqp-client reopens the connection, then {@link #connectionRecovered} consumes again. */
    private void connectionLost(BrokerConnection lost, String reason) {
        if (stopping || lost != connection) {
            return;
        }
        connectionDown = "lost the connection to " + lost.describe() + " (" + reason + ")";
        for (SubscriberSupervisor supervisor : supervisors) {
            supervisor.connectionLost(reason);
        }
        LOG.warnf("Lost the connection to %s (%s). Reconnecting %s; the %d subscriber(s) consume again once it "
                + "is back, and RabbitMQ requeues the deliveries left unsettled, so none is lost", lost.describe(),
                reason, backoff().describe(), definitions.size());
    }

    /**
     * The connection and its channels are open again, with no consumer on them: each supervisor declares (or checks)
     * its queues again, since a broker that restarted may have lost them, and consumes again on its channel. Deliveries
     * from before the cut that are settled now are not sent: amqp-client drops acks of tags from an earlier
     * connection, and the broker has requeued those messages already.
     */
    private void connectionRecovered(BrokerConnection recovered) {
        if (stopping || recovered != connection) {
            return;
        }
        connectionDown = null;
        reconnectedTo.set(recovered.describe());
        for (SubscriberSupervisor supervisor : supervisors) {
            supervisor.connectionRecovered();
        }
    }

    /** One INFO once every subscriber consumes again after a reconnection. */
    private void logWhenAllConsume() {
        List<SubscriberSupervisor> all = supervisors;
        if (all.stream().allMatch(s -> s.state() == SubscriberSupervisor.State.CONSUMING)) {
            String to = reconnectedTo.getAndSet(null);
            if (to != null) {
                LOG.infof("Reconnected to %s: every subscriber consumes again %s", to,
                        all.stream().map(SubscriberSupervisor::queue).toList());
            }
        }
    }

    private void prepareQueues(BrokerConnection connection, TopologyPlan plan) throws IOException {
        if (buildTimeConfig.declareTopology()) {
            TopologyDeclarer.declare(connection, plan);
        } else {
            TopologyDeclarer.checkExists(connection, plan);
        }
    }

    /**
     * Graceful stop; safe to call more than once. The wait for handlers in flight happens outside the engine's lock,
     * so a handler that needs the connection (to publish) can still get it meanwhile.
     */
    public void stop() {
        synchronized (this) {
            if (this.stopping) {
                return;
            }
            this.stopping = true;
        }
        for (SubscriberSupervisor supervisor : supervisors) {
            supervisor.stopTaking();
        }
        Duration timeout = config.shutdownTimeout();
        try {
            int left = inFlight.awaitZero(timeout);
            if (left > 0) {
                LOG.warnf("%d delivery(ies) still in flight after %s; RabbitMQ requeues them as the channels close", left,
                        timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (InServiceDelay delay : inServiceDelays.values()) {
            delay.releaseAll();
        }
        synchronized (this) {
            stopped = true;
            for (SubscriberSupervisor supervisor : supervisors) {
                supervisor.close();
            }
            if (connection != null) {
                connection.close();
                connection = null;
            }
            synchronized (publishingLock) {
                if (publishingConnection != null) {
                    publishingConnection.close();
                    publishingConnection = null;
                }
            }
            if (inProcessServer != null) {
                inProcessServer.stop();
            }
        }
    }
}
