package io.quarkiverse.rabbitmq.subscriber.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChoice;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.VirtualClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.WallClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberBuildTimeConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerAddress;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerConnector;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.HandlerDispatcher;
import io.quarkiverse.rabbitmq.subscriber.runtime.delay.InServiceDelay;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InFlight;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.SubscriberConsumer;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.SettlementStats;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settler;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyDeclarer;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;

/**
 * Owns the connection and the consumers: starts them once the application has started, and on shutdown stops taking
 * deliveries, lets the handlers in flight finish and settle, then closes channels and connection.
 */
@Singleton
public class SubscriberEngine {

    private static final Logger LOG = Logger.getLogger(SubscriberEngine.class);
    private static final Duration RESUBSCRIBE_DELAY = Duration.ofSeconds(1);

    @Inject
    Vertx vertx;

    @Inject
    SubscriberConfig config;

    @Inject
    SubscriberBuildTimeConfig buildTimeConfig;

    @Inject
    ObjectMapper objectMapper;

    private final SettlementStats stats = new SettlementStats();
    private final InFlight inFlight = new InFlight();
    private final List<RunningSubscriber> running = new ArrayList<>();
    private List<SubscriberDefinition> definitions = List.of();
    private volatile BrokerConnection connection;
    private InProcessServer inProcessServer;
    private Clock clock;
    /** Set when a stop begins: no more subscribing. */
    private volatile boolean stopping;
    /** Set when the connection is closed for good. */
    private volatile boolean stopped;

    private record RunningSubscriber(SubscriberDefinition definition, BrokerChannel channel, SubscriberConsumer consumer,
            String consumerTag, InServiceDelay delay) {
    }

    void define(List<SubscriberDefinition> definitions) {
        this.definitions = List.copyOf(definitions);
    }

    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_AFTER) StartupEvent event) throws Exception {
        start();
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
            connection = open();
            LOG.debugf("Connected to %s", connection.describe());
        }
        return connection;
    }

    private BrokerConnection open() {
        if (config.broker() == SubscriberConfig.BrokerKind.IN_PROCESS) {
            return startInProcess().connect();
        }
        BrokerAddress address = BrokerAddress.resolve(config.url(), ConfigProvider.getConfig());
        try {
            return BrokerConnector.connect(address, config.connectionName());
        } catch (IllegalStateException e) {
            if (config.broker() == SubscriberConfig.BrokerKind.RABBITMQ) {
                throw e;
            }
            String reason = e.getCause() == null ? e.getMessage() : e.getCause().toString();
            LOG.warn(BrokerChoice.fallbackWarning(config.broker(), LaunchMode.current(), address.redacted(), reason));
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
        clock = mode == SubscriberConfig.ClockMode.PAUSED ? new VirtualClock(System.currentTimeMillis())
                : new WallClock(vertx);
        inProcessServer = new InProcessServer(clock,
                version.equals("3.10") ? InProcessServer.Version.V3_10 : InProcessServer.Version.V4);
        return inProcessServer;
    }

    /** The in-process broker, when this application uses it. */
    public synchronized Optional<InProcessServer> inProcessServer() {
        if (connection == null && !stopped) {
            connection();
        }
        return Optional.ofNullable(inProcessServer);
    }

    /** The clock of the runtime's timers: the in-process broker's when it is in use, else the wall clock. */
    public synchronized Clock clock() {
        if (clock == null) {
            clock = new WallClock(vertx);
        }
        return clock;
    }

    public SettlementStats stats() {
        return stats;
    }

    /** Deliveries handed to handlers and not settled yet. */
    public int inFlight() {
        return inFlight.count();
    }

    synchronized void start() throws Exception {
        if (definitions.isEmpty() || !running.isEmpty()) {
            return;
        }
        try {
            BrokerConnection connection = connection();
            if (buildTimeConfig.declareTopology()) {
                TopologyDeclarer.declare(connection, definitions);
            } else {
                TopologyDeclarer.checkExists(connection, definitions);
            }
            for (SubscriberDefinition definition : definitions) {
                running.add(startOne(connection, definition));
            }
        } catch (Exception | Error e) {
            // Quarkus does not fire ShutdownEvent for an application that failed to start: release everything here.
            stop();
            throw e;
        }
        LOG.infof("Consuming %d RabbitMQ queue(s) on %s: %s", running.size(), connection.describe(),
                running.stream().map(r -> r.definition().queue).toList());
    }

    private RunningSubscriber startOne(BrokerConnection connection, SubscriberDefinition definition) throws Exception {
        BrokerChannel channel = connection.createChannel();
        channel.qos(definition.prefetch > 0 ? definition.prefetch : config.prefetch());
        // Each subscriber gets an event loop of its own, so subscribers do not serialize behind each other.
        Context eventLoop = ((VertxInternal) vertx).createEventLoopContext();
        Settler settler = new Settler(channel, definition.queue, eventLoop, stats, inFlight::end);
        InServiceDelay delay = new InServiceDelay(definition.queue, channel, clock(), config.retryCountHeader());
        HandlerDispatcher dispatcher = new HandlerDispatcher(definition, PayloadDecoder.of(definition, objectMapper),
                settler, delay, eventLoop);
        SubscriberConsumer consumer = new SubscriberConsumer(definition.queue, eventLoop, dispatcher, inFlight,
                config.retryCountHeader(), () -> subscriberLost(definition, "the broker cancelled its consumer"));
        channel.onBrokerClose(reason -> subscriberLost(definition, "the broker closed its channel: " + reason.replyText()));
        String tag = channel.consume(definition.queue, consumer);
        return new RunningSubscriber(definition, channel, consumer, tag, delay);
    }

    /**
     * The broker stopped a subscriber's consumer (its queue was deleted, its channel closed on an error, a consumer
     * timeout): say so, and subscribe again, declaring the queue again where the application declares topology.
     */
    private void subscriberLost(SubscriberDefinition definition, String why) {
        if (stopping) {
            return;
        }
        LOG.errorf("%s stopped consuming queue '%s': %s. Subscribing again in %s", definition.method, definition.queue,
                why, RESUBSCRIBE_DELAY);
        // Subscribing waits for the broker's answers: off the event loop the wall clock's timer fires on.
        clock().schedule(RESUBSCRIBE_DELAY, () -> vertx.executeBlocking(() -> {
            resubscribe(definition);
            return null;
        }, false));
    }

    private void resubscribe(SubscriberDefinition definition) {
        synchronized (this) {
            if (stopping) {
                return;
            }
            for (int i = 0; i < running.size(); i++) {
                RunningSubscriber old = running.get(i);
                if (old.definition() != definition) {
                    continue;
                }
                try {
                    BrokerConnection connection = connection();
                    if (buildTimeConfig.declareTopology()) {
                        TopologyDeclarer.declare(connection, List.of(definition));
                    } else {
                        TopologyDeclarer.checkExists(connection, List.of(definition));
                    }
                    old.consumer().stopTakingDeliveries();
                    old.delay().releaseAll();
                    old.channel().close();
                    running.set(i, startOne(connection, definition));
                    LOG.infof("%s consumes queue '%s' again", definition.method, definition.queue);
                    return;
                } catch (Exception e) {
                    LOG.errorf("%s could not subscribe to queue '%s' again: %s", definition.method, definition.queue,
                            e.getMessage());
                }
            }
        }
        subscriberLost(definition, "the last attempt failed");
    }

    /**
     * Graceful stop; safe to call more than once. The wait for handlers in flight happens outside the engine's lock,
     * so a handler that needs the connection (to publish) can still get it meanwhile.
     */
    public void stop() {
        List<RunningSubscriber> stopping;
        synchronized (this) {
            if (this.stopping) {
                return;
            }
            this.stopping = true;
            stopping = new ArrayList<>(running);
        }
        for (RunningSubscriber subscriber : stopping) {
            subscriber.consumer().stopTakingDeliveries();
            try {
                subscriber.channel().cancel(subscriber.consumerTag());
            } catch (Exception e) {
                LOG.debugf("Cancelling the consumer of '%s' failed: %s", subscriber.definition().queue, e);
            }
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
        for (RunningSubscriber subscriber : stopping) {
            subscriber.delay().releaseAll();
        }
        synchronized (this) {
            stopped = true;
            for (RunningSubscriber subscriber : running) {
                subscriber.channel().close();
            }
            running.clear();
            if (connection != null) {
                connection.close();
                connection = null;
            }
            if (inProcessServer != null) {
                inProcessServer.stop();
            }
        }
    }
}
