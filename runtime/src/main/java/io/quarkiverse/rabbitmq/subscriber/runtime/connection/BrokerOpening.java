package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import jakarta.enterprise.inject.Instance;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.EmbeddedBroker;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.WallClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.BrokerSettings;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.security.ConnectionSecurity;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.tls.TlsConfigurationRegistry;
import io.vertx.core.Vertx;

/**
 * Chooses the broker and opens its connections, as {@code quarkus.rabbitmq-subscriber.*} says: RabbitMQ (its address,
 * TLS and login, each connection's I/O mode, the largest message, the heartbeat), the in-process broker (with a paused
 * clock in test mode unless configured), or RabbitMQ with the in-process broker as the fallback. Apart from
 * {@code BrokerSession}, which owns the connections once open (under its lock, with their events and their closing):
 * this only reads the configuration and connects, and keeps nothing. Logs under the session's category, as it did when
 * the session opened them itself.
 */
final class BrokerOpening {

    /** The session's category, as log configurations name it: these lines were the session's own. */
    private static final Logger LOG = Logger.getLogger("io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession");

    /**
     * What the choice of broker decided, with the subscribers' connection open.
     *
     * @param connection the subscribers' connection
     * @param clock the clock of every timer: the in-process broker's when it is the one chosen, else the wall clock
     * @param embedded the in-process broker, when it is the one chosen; else null
     * @param address RabbitMQ's address, when RabbitMQ was tried (also when the in-process broker took its place); else
     *        null
     * @param security TLS, login and credentials for RabbitMQ, decided with its address; else null
     */
    record Opened(BrokerConnection connection, Clock clock, EmbeddedBroker embedded, BrokerAddress address,
            ConnectionSecurity security) {
    }

    /** The broker's name, for messages ({@code Broker.DEFAULT} or a configured one). */
    private final String name;
    private final Vertx vertx;
    private final SubscriberConfig config;
    /** The clock every in-process broker shares (one {@code advance} moves them all), made on first use. */
    private final java.util.function.Supplier<Clock> inProcessClock;
    /** The broker's own settings: its address, login, TLS and heartbeat. */
    private final BrokerSettings settings;
    /** Quarkus's TLS registry, for {@code tls-configuration-name} and {@code amqps://}. */
    private final Instance<TlsConfigurationRegistry> tlsRegistry;

    BrokerOpening(String name, BrokerSettings settings, Vertx vertx, SubscriberConfig config,
            Instance<TlsConfigurationRegistry> tlsRegistry, java.util.function.Supplier<Clock> inProcessClock) {
        this.name = name;
        this.vertx = vertx;
        this.config = config;
        this.settings = settings;
        this.tlsRegistry = tlsRegistry;
        this.inProcessClock = inProcessClock;
    }

    /**
     * Chooses the broker and opens the subscribers' connection to it.
     *
     * @param backoff the reconnection waits
     * @param failures told of the subscribers' connection's failed reconnections and unreadable messages
     */
    Opened open(Backoff backoff, BrokerConnector.ReconnectionFailures failures) {
        if (config.broker() == SubscriberConfig.BrokerKind.IN_PROCESS) {
            return inProcess(null, null);
        }
        if (!BrokerSessions.isDefault(name) && settings.url().isEmpty() && settings.addresses().isEmpty()) {
            // Dev Services' keys (rabbitmq-host...) and localhost are the default broker's: a named one says where.
            throw new IllegalStateException("Broker '" + name + "' has no address: set quarkus.rabbitmq-subscriber."
                    + "brokers.\"" + name + "\".url (or .addresses)");
        }
        BrokerAddress address = BrokerAddress.resolve(settings.url(), settings.username(), settings.password(),
                ConfigProvider.getConfig());
        if (settings.addresses().isPresent()) {
            address = address.withNodes(settings.addresses().get());
        }
        ConnectionSecurity security = ConnectionSecurity.of(settings, address.tls(), address.username(),
                tlsRegistry.isResolvable() ? tlsRegistry.get() : null);
        try {
            BrokerConnection opened = BrokerConnector.connect(address, connectionName(), ioModes().subscribers(),
                    backoff, maxMessageSize(), security, settings.heartbeat(), failures);
            LOG.debugf("Connected to %s with %s", address.describe(), security.describe());
            warnIfConfirmsOutwaitHeartbeats(address);
            return new Opened(opened, new WallClock(vertx), null, address, security);
        } catch (IllegalStateException e) {
            if (config.broker() == SubscriberConfig.BrokerKind.RABBITMQ || !EmbeddedBroker.available()) {
                // No in-process broker to fall back to (an application that left the test artifact out): the failure
                // as it is.
                throw e;
            }
            String reason = e.getCause() == null ? e.getMessage() : e.getCause().toString();
            LOG.warn(BrokerChoice.fallbackWarning(config.broker(), LaunchMode.current(), address.describe(), reason));
            return inProcess(address, security);
        }
    }

    /** The publisher's own connection, to the broker {@link #open} chose. */
    BrokerConnection openPublishing(Opened chosen, Backoff backoff) {
        return chosen.embedded() != null ? chosen.embedded().connect()
                : BrokerConnector.connect(chosen.address(), connectionName() + "-publisher",
                        ioModes().publisher(), backoff, maxMessageSize(), chosen.security(), settings.heartbeat(),
                        BrokerConnector.ReconnectionFailures.NONE);
    }

    /** Starts the in-process broker and connects to it; RabbitMQ's address and security as they were decided. */
    private Opened inProcess(BrokerAddress address, ConnectionSecurity security) {
        EmbeddedBroker server = startInProcess();
        return new Opened(server.connect(), server.clock(), server, address, security);
    }

    private EmbeddedBroker startInProcess() {
        return EmbeddedBroker.start(inProcessClock.get(), config.inProcess().serverVersion().trim());
    }

    /** The connection name RabbitMQ shows: {@code connection-name}, and a named broker's name after it. */
    private String connectionName() {
        return BrokerSessions.isDefault(name) ? config.connectionName() : config.connectionName() + "-" + name;
    }

    /** {@code quarkus.rabbitmq-subscriber.nio}, or the choice per connection when unset (see {@link IoModes}). */
    private IoModes ioModes() {
        return IoModes.of(config.nio(), config.copyChannel());
    }

    private int maxMessageSize() {
        long bytes = config.maxMessageSize().asLongValue();
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, bytes));
    }

    /**
     * A stalled connection is found after about two heartbeats; a confirm that times out before that turns the stall
     * into handler failures (each spends an attempt) instead of a cut. Said once, at startup.
     */
    private void warnIfConfirmsOutwaitHeartbeats(BrokerAddress address) {
        java.time.Duration heartbeat = BrokerConnector.heartbeat(address, settings.heartbeat());
        java.time.Duration confirmTimeout = config.publisher().confirmTimeout();
        if (!heartbeat.isZero() && confirmTimeout.compareTo(heartbeat.multipliedBy(5).dividedBy(2)) < 0) {
            LOG.warnf("quarkus.rabbitmq-subscriber.publisher.confirm-timeout (%s) is shorter than two and a half "
                    + "heartbeats (%s each): a connection that stalls without closing is found only after about two, "
                    + "so confirms would time out first and count as failures of their handlers. Raise the confirm "
                    + "timeout or lower the heartbeat", confirmTimeout, heartbeat);
        }
    }
}
