package io.quarkiverse.rabbitmq.subscriber.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberBuildTimeConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerAddress;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerConnector;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.HandlerDispatcher;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InFlight;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.SubscriberConsumer;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.SettlementStats;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settler;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyDeclarer;
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
    private BrokerConnection connection;
    private boolean stopped;

    private record RunningSubscriber(SubscriberDefinition definition, BrokerChannel channel, SubscriberConsumer consumer,
            String consumerTag) {
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

    /** The shared connection, opened on first use. */
    public synchronized BrokerConnection connection() {
        if (stopped) {
            throw new IllegalStateException("The RabbitMQ subscriber runtime has stopped");
        }
        if (connection == null) {
            BrokerAddress address = BrokerAddress.resolve(config.url(), ConfigProvider.getConfig());
            connection = BrokerConnector.connect(address, config.connectionName());
            LOG.debugf("Connected to %s", connection.describe());
        }
        return connection;
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
        BrokerConnection connection = connection();
        if (buildTimeConfig.declareTopology()) {
            TopologyDeclarer.declare(connection, definitions);
        } else {
            TopologyDeclarer.checkExists(connection, definitions);
        }
        for (SubscriberDefinition definition : definitions) {
            running.add(startOne(connection, definition));
        }
        LOG.infof("Consuming %d RabbitMQ queue(s): %s", running.size(),
                running.stream().map(r -> r.definition().queue).toList());
    }

    private RunningSubscriber startOne(BrokerConnection connection, SubscriberDefinition definition) throws Exception {
        BrokerChannel channel = connection.createChannel();
        channel.qos(definition.prefetch > 0 ? definition.prefetch : config.prefetch());
        // Each subscriber gets an event loop of its own, so subscribers do not serialize behind each other.
        Context eventLoop = ((VertxInternal) vertx).createEventLoopContext();
        Settler settler = new Settler(channel, definition.queue, eventLoop, stats, inFlight::end);
        HandlerDispatcher dispatcher = new HandlerDispatcher(definition, PayloadDecoder.of(definition, objectMapper),
                settler);
        SubscriberConsumer consumer = new SubscriberConsumer(definition.queue, eventLoop, dispatcher, inFlight,
                config.retryCountHeader());
        String tag = channel.consume(definition.queue, consumer);
        return new RunningSubscriber(definition, channel, consumer, tag);
    }

    /** Graceful stop; safe to call more than once. */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        stopped = true;
        for (RunningSubscriber subscriber : running) {
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
        for (RunningSubscriber subscriber : running) {
            subscriber.channel().close();
        }
        running.clear();
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }

}
