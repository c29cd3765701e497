package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

import jakarta.enterprise.inject.Instance;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.EmbeddedBroker;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.BrokerSettings;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.security.ConnectionFailure;
import io.quarkus.tls.TlsConfigurationRegistry;
import io.vertx.core.Vertx;

/**
 * The application's link to its broker: chooses the broker once ({@code quarkus.rabbitmq-subscriber.broker}: RabbitMQ,
 * the in-process broker, or RabbitMQ with the in-process broker as the fallback), then owns what that choice decides:
 * the subscribers' connection, the publisher's connection (kept apart, since RabbitMQ blocks a connection that
 * publishes while it is low on memory or disk, and consumers on it could not ack any more), the in-process broker and
 * the clock of every timer. The clock can only be read once the choice is made, so nothing can run on a wall clock
 * while the in-process broker's paused one is the one that counts. What the configuration asks for, and the opening of
 * each connection, are {@link BrokerOpening}'s; this object calls it under its locks and keeps what it opened.
 * <p>
 * Connections open on first use, under this object's lock; no broker callback takes it (a reader thread waiting for a
 * lock whose holder waits for a reply that reader would read freezes the connection). Losses and recoveries of the
 * subscribers' connection go to the listeners registered with {@link #onConnectionEvents}, on the client's threads and
 * in the order they happen.
 */
public class BrokerSession implements Connections {

    private static final Logger LOG = Logger.getLogger(BrokerSession.class);

    /** Its name: {@code Broker.DEFAULT}, or one configured under {@code quarkus.rabbitmq-subscriber.brokers}. */
    private final String name;
    /** How to reach it and log in. */
    private final BrokerSettings settings;
    private final Vertx vertx;
    private final SubscriberConfig config;
    /** Quarkus's TLS registry, for {@code tls-configuration-name} and {@code amqps://}. */
    private final Instance<TlsConfigurationRegistry> tlsRegistry;
    /** The one clock of every in-process broker the application starts, made with the first of them. */
    private final Supplier<Clock> inProcessClock;

    /** A session that opens nothing until first used ({@link BrokerSessions} makes one per broker). */
    BrokerSession(String name, BrokerSettings settings, Vertx vertx, SubscriberConfig config,
            Instance<TlsConfigurationRegistry> tlsRegistry, Supplier<Clock> inProcessClock) {
        this.name = name;
        this.settings = settings;
        this.vertx = vertx;
        this.config = config;
        this.tlsRegistry = tlsRegistry;
        this.inProcessClock = inProcessClock;
    }

    /** The broker's name: {@code Broker.DEFAULT} or a configured one. */
    public String name() {
        return name;
    }

    /** How to reach it and log in, as configured. */
    public BrokerSettings settings() {
        return settings;
    }

    private final List<BrokerConnection.ConnectionListener> listeners = new CopyOnWriteArrayList<>();
    private final List<java.util.function.Consumer<String>> unreadableListeners = new CopyOnWriteArrayList<>();
    private volatile BrokerConnection connection;
    private volatile BrokerConnection publishingConnection;
    private final Object publishingLock = new Object();
    /** Notified when the subscribers' connection is open again ({@link #awaitOpen}). */
    private final Object reopened = new Object();
    /**
     * Set once the broker is chosen, with the clock that goes with it, the in-process broker if it is the one, and
     * RabbitMQ's address and security for the publisher's connection. Its {@code connection} is the one first opened;
     * {@link #connection()} gives the one in use.
     */
    private volatile BrokerOpening.Opened chosen;
    private volatile Backoff backoff;
    /** Why the subscribers' connection is down, or null. */
    private volatile String downBecause;
    /** While it is down: why the latest reconnection failed, or null. */
    private volatile ConnectionFailure reconnectionFailure;
    private volatile boolean closed;

    /** The subscribers' connection, opened (and the broker chosen) on first use. */
    public BrokerConnection connection() {
        // Without the lock once open: a publisher must not wait behind a resubscription's network calls.
        BrokerConnection open = connection;
        if (open != null && !closed) {
            return open;
        }
        return openConnection();
    }

    private synchronized BrokerConnection openConnection() {
        if (closed) {
            throw new IllegalStateException("The RabbitMQ subscriber runtime has stopped" + named());
        }
        if (connection == null) {
            chosen = opening().open(backoff(), new BrokerConnector.ReconnectionFailures() {
                @Override
                public void failed(ConnectionFailure failure) {
                    reconnectionFailure = failure;
                }

                @Override
                public void unreadableMessage(String what) {
                    unreadableListeners.forEach(listener -> listener.accept(what));
                }
            });
            BrokerConnection opened = chosen.connection();
            opened.onConnectionEvents(new BrokerConnection.ConnectionListener() {
                @Override
                public void lost(String reason) {
                    if (!closed && opened == connection) {
                        downBecause = "lost the connection to " + opened.describe() + " (" + reason + ")";
                        listeners.forEach(listener -> listener.lost(reason));
                    }
                }

                @Override
                public void recovered() {
                    if (!closed && opened == connection) {
                        downBecause = null;
                        reconnectionFailure = null;
                        listeners.forEach(BrokerConnection.ConnectionListener::recovered);
                    }
                    synchronized (reopened) {
                        reopened.notifyAll();
                    }
                }
            });
            connection = opened;
            LOG.debugf("Connected to %s", opened.describe());
        }
        return connection;
    }

    /** The publisher's own connection, to the broker the subscribers use, opened on first use. */
    @Override
    public BrokerConnection publishingConnection() {
        BrokerConnection open = publishingConnection;
        if (open != null && !closed) {
            return open;
        }
        // The subscribers' connection makes the choice of broker.
        connection();
        synchronized (publishingLock) {
            if (closed) {
                throw new IllegalStateException("The RabbitMQ subscriber runtime has stopped" + named());
            }
            if (publishingConnection == null) {
                publishingConnection = opening().openPublishing(chosen, backoff());
            }
            return publishingConnection;
        }
    }

    /**
     * Told when a message the client cannot read ended the subscribers' connection (before the loss itself is
     * reported); must not wait for anything.
     */
    public void onUnreadableMessage(java.util.function.Consumer<String> listener) {
        unreadableListeners.add(listener);
    }

    /** Told of every loss and recovery of the subscribers' connection; must not wait for anything. */
    public void onConnectionEvents(BrokerConnection.ConnectionListener listener) {
        listeners.add(listener);
    }

    /** How many nodes {@code quarkus.rabbitmq-subscriber.addresses} lists: 0 for a single broker. */
    public int nodeCount() {
        connection();
        BrokerAddress address = chosen.address();
        return address == null ? 0 : address.nodes().size();
    }

    /**
     * Waits until the subscribers' connection is open again after a loss (amqp-client's recovery reopens it): as long
     * as the longest reconnection wait and a connection attempt to each listed node. False when it is not, or when the
     * runtime stops meanwhile.
     */
    public boolean awaitOpen() throws InterruptedException {
        BrokerConnection current = connection();
        long patience = java.time.Duration.ofMillis(backoff().withoutJitter(Integer.MAX_VALUE))
                .plusSeconds(10L * Math.max(1, nodeCount())).toNanos();
        Clock clock = clock();
        long deadline = clock.nanos() + patience;
        synchronized (reopened) {
            while (!closed && !current.isOpen()) {
                long left = deadline - clock.nanos();
                if (left <= 0) {
                    return false;
                }
                java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(reopened, left);
            }
        }
        return !closed;
    }

    /** Why the subscribers' connection is down, while it is, with why the latest reconnection failed. */
    public Optional<String> downBecause() {
        String down = downBecause;
        ConnectionFailure failure = reconnectionFailure;
        return down == null ? Optional.empty()
                : Optional.of(failure == null ? down : down + "; reconnecting fails: " + failure);
    }

    /** Why RabbitMQ blocks the publisher's connection, while it does; never opens it. */
    public Optional<String> publishingBlockedBecause() {
        BrokerConnection publishing = publishingConnection;
        return publishing == null ? Optional.empty() : publishing.blockedBecause();
    }

    /** The address of RabbitMQ, once chosen; empty for the in-process broker. Never opens anything. */
    public Optional<BrokerAddress> address() {
        BrokerOpening.Opened current = chosen;
        return current == null || current.embedded() != null ? Optional.empty() : Optional.ofNullable(current.address());
    }

    /** How RabbitMQ's connections prove who they are (TLS, login, credentials); empty as {@link #address()} is. */
    public Optional<io.quarkiverse.rabbitmq.subscriber.runtime.security.ConnectionSecurity> security() {
        BrokerOpening.Opened current = chosen;
        return current == null || current.embedded() != null ? Optional.empty()
                : Optional.ofNullable(current.security());
    }

    /** The in-process broker, when it is the one chosen; never opens anything. */
    public Optional<EmbeddedBroker> embeddedBroker() {
        BrokerOpening.Opened current = chosen;
        return current == null ? Optional.empty() : Optional.ofNullable(current.embedded());
    }

    /**
     * The clock of the runtime's timers: the in-process broker's when it is in use, else the wall clock.
     *
     * @throws IllegalStateException before the broker is chosen (by the first {@link #connection()})
     */
    public Clock clock() {
        BrokerOpening.Opened current = chosen;
        if (current == null) {
            throw new IllegalStateException("The runtime's clock is read before the broker is chosen: open the "
                    + "connection first");
        }
        return current.clock();
    }

    /** Reconnection and resubscription waits ({@code quarkus.rabbitmq-subscriber.recovery.*}). */
    public Backoff backoff() {
        Backoff current = backoff;
        if (current == null) {
            BrokerSettings.Recovery recovery = settings.recovery();
            current = new Backoff(recovery.initialDelay(), recovery.maxDelay(), recovery.jitter());
            backoff = current;
        }
        return current;
    }

    /** Closes both connections and stops the in-process broker; nothing opens again. Safe to call more than once. */
    public synchronized void close() {
        closed = true;
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
        BrokerOpening.Opened current = chosen;
        if (current != null && current.embedded() != null) {
            current.embedded().stop();
        }
    }

    private String named() {
        return BrokerSessions.named(name);
    }

    /** Chooses the broker and opens connections to it; keeps nothing, so a new one each time is as good. */
    private BrokerOpening opening() {
        return new BrokerOpening(name, settings, vertx, config, tlsRegistry, inProcessClock);
    }
}
