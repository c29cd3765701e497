package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.Broker;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.EmbeddedBroker;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.WallClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.BrokerNames;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.tls.TlsConfigurationRegistry;
import io.vertx.core.Vertx;

/**
 * One {@link BrokerSession} per broker the application is configured with: the default one (its settings at the root of
 * {@code quarkus.rabbitmq-subscriber}) and each named under {@code brokers."<name>"}, as Quarkus's datasources are
 * named. Each opens its own connections on first use. The in-process broker serves every name, one server per name,
 * all on one clock: a test's {@code advance} moves them together, as the wall clock would.
 * <p>
 * The default broker's session is a bean of its own ({@link #defaultSession()}), for what only the default broker
 * does (the inbox's and outbox's own work, partition spreading, the Dev UI's in-process controls).
 */
@Singleton
public class BrokerSessions {

    @Inject
    Vertx vertx;

    @Inject
    SubscriberConfig config;

    /** Quarkus's TLS registry, for {@code tls-configuration-name} and {@code amqps://}. */
    @Inject
    Instance<TlsConfigurationRegistry> tlsRegistry;

    /** The default broker first, then the named ones by name. */
    private final Map<String, BrokerSession> sessions = Collections.synchronizedMap(new java.util.LinkedHashMap<>());
    private Clock inProcessClock;

    @PostConstruct
    void open() {
        sessions.put(Broker.DEFAULT, new BrokerSession(Broker.DEFAULT, config.defaultBroker(), vertx, config,
                tlsRegistry, this::inProcessClock));
        new TreeMap<>(config.brokers()).forEach((name, settings) -> sessions.put(name,
                new BrokerSession(name, settings, vertx, config, tlsRegistry, this::inProcessClock)));
    }

    /** Whether a name is the default broker's. */
    public static boolean isDefault(String broker) {
        return Broker.DEFAULT.equals(broker);
    }

    /** How messages name a broker after what they say of it: nothing for the default one, " (broker 'billing')". */
    public static String named(String broker) {
        return isDefault(broker) ? "" : " (broker '" + broker + "')";
    }

    /** The session of a broker by name ({@link Broker#DEFAULT} for the default one). */
    public BrokerSession of(String broker) {
        BrokerSession session = sessions.get(broker);
        if (session == null) {
            throw new IllegalArgumentException("Broker '" + broker + "' is not configured: set quarkus.rabbitmq-"
                    + "subscriber.brokers.\"" + broker + "\".url (or addresses); " + BrokerNames.listed(
                            new java.util.TreeSet<>(config.brokers().keySet())));
        }
        return session;
    }

    /** Every session, the default broker's first. */
    public List<BrokerSession> all() {
        synchronized (sessions) {
            return new ArrayList<>(sessions.values());
        }
    }

    /** The default broker's session, as a bean: what is only ever the default broker's injects this. */
    @Produces
    @Singleton
    BrokerSession defaultSession() {
        return of(Broker.DEFAULT);
    }

    /** Closes every session: nothing opens again. */
    public void close() {
        all().forEach(BrokerSession::close);
    }

    /**
     * The clock of every in-process broker: paused in test mode unless {@code in-process.clock} says otherwise, made
     * when the first in-process broker starts.
     */
    private synchronized Clock inProcessClock() {
        if (inProcessClock == null) {
            SubscriberConfig.ClockMode mode = config.inProcess().clock().orElse(LaunchMode.current() == LaunchMode.TEST
                    ? SubscriberConfig.ClockMode.PAUSED
                    : SubscriberConfig.ClockMode.WALL);
            inProcessClock = EmbeddedBroker.clock(mode == SubscriberConfig.ClockMode.PAUSED, new WallClock(vertx));
        }
        return inProcessClock;
    }
}
