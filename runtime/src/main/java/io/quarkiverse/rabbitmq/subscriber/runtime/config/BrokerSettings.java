package io.quarkiverse.rabbitmq.subscriber.runtime.config;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.WithDefault;

/**
 * How to reach one broker and log in to it: the address, the login, TLS, recovery after a cut, the stream port and the
 * heartbeat. The default broker's are at the root of {@code quarkus.rabbitmq-subscriber} ({@link
 * SubscriberConfig#defaultBroker()}); everything else in the configuration is the application's, whatever broker it uses.
 */
public interface BrokerSettings {

    /**
     * The broker to connect to, as an AMQP URI ({@code amqp://user:password@host:port/vhost}). When absent, the
     * {@code rabbitmq-host}, {@code rabbitmq-port}, {@code rabbitmq-username} and {@code rabbitmq-password} properties
     * (set by Quarkus's RabbitMQ Dev Services) are used, then {@code amqp://guest:guest@localhost:5672}.
     */
    Optional<String> url();

    /**
     * The user to connect as; wins over the user of {@code url} and of the {@code rabbitmq-*} keys. A user or password
     * with characters a URI would need encoded can be written here as it is.
     */
    Optional<String> username();

    /**
     * The password to connect with; wins over the password of {@code url} and of the {@code rabbitmq-*} keys. It
     * never reaches a log, an exception, readiness or the Dev UI.
     */
    Optional<String> password();

    /**
     * A cluster's nodes, {@code host1:5672,host2:5672,...} (port 5672 when left out, 5671 under {@code amqps}): the client
     * connects to the first that answers, in this order, now and after a cut; a node whose metadata store timed out on
     * a declaration (RabbitMQ 4, a node cut off from its cluster's majority) is tried last for 5 minutes. Credentials,
     * virtual host and TLS come from {@code url} (or the {@code rabbitmq-*} keys).
     */
    Optional<java.util.List<String>> addresses();

    /**
     * A TLS configuration of Quarkus's TLS registry ({@code quarkus.tls.<name>.trust-store.*}, and
     * {@code .key-store.*} for a client certificate) for {@code amqps://} connections. Without it, {@code amqps://} uses
     * the registry's default configuration ({@code quarkus.tls.trust-store.*}) when there is one, else the JVM's trust
     * store. The broker's certificate and host name are always verified.
     */
    Optional<String> tlsConfigurationName();

    /** TLS for development. */
    Tls tls();

    interface Tls {
        /**
         * Accepts any certificate and host name from the broker: for development against a broker with a self-signed
         * certificate only, never in production (anyone on the path can read and change the traffic). Every
         * connection logs a WARN while it is on.
         */
        @WithDefault("false")
        boolean trustAll();
    }

    /**
     * How the connection logs in: {@code plain} (a user and password) or {@code external} (the client certificate of
     * the TLS configuration; the broker needs its {@code rabbitmq_auth_mechanism_ssl} plugin and a user named as the
     * certificate).
     */
    @WithDefault("plain")
    SaslMechanism saslMechanism();

    enum SaslMechanism {
        PLAIN,
        EXTERNAL
    }

    /**
     * What to ask a Quarkus {@code CredentialsProvider} for: with it, the user and password come from the provider (its
     * {@code user} and {@code password}), read again at every connection and reconnection, so a rotated password is
     * used without a restart. The user falls back to {@code username} or the url's.
     */
    Optional<String> credentialsProvider();

    /** The {@code @Named} bean of the {@code CredentialsProvider}, when the application has several. */
    Optional<String> credentialsProviderName();

    /** Reconnecting after a cut, and subscribing again after the broker stopped a consumer. */
    Recovery recovery();

    interface Recovery {
        /** The wait before the first attempt. */
        @WithDefault("1s")
        Duration initialDelay();

        /** The longest wait between two attempts: each wait doubles until it reaches this. */
        @WithDefault("30s")
        Duration maxDelay();

        /** How far each wait is moved either way at random, as a fraction (0.2: ±20%), so instances spread out. */
        @WithDefault("0.2")
        double jitter();
    }

    /**
     * The port of RabbitMQ's stream protocol (the {@code rabbitmq_stream} plugin's listener) on the broker's host,
     * which stream subscriptions ({@code type = QueueType.STREAM}) read from with the broker's credentials, TLS and
     * virtual host. By default RabbitMQ's: 5552, or 5551 when the broker's url is {@code amqps://} (the stream
     * protocol's TLS listener, {@code stream.listeners.ssl}).
     */
    java.util.OptionalInt streamPort();

    /**
     * The heartbeat the connections ask RabbitMQ for (whole seconds; the broker's own setting caps it). A connection
     * that carries nothing, not even a heartbeat, for about two of them is taken as cut: a network path that stalls
     * without closing (a half-open connection) is then found, readiness goes DOWN, the client reconnects, and the broker
     * requeues what was unsettled. A {@code heartbeat} parameter in {@code url} ({@code ?heartbeat=5}, in seconds)
     * wins over this. Keep {@code publisher.confirm-timeout} above two and a half heartbeats (a WARN at startup says when it
     * is not): a confirm that never comes on a stalled connection should end with the connection, as a cut, not as a
     * failure of the handler whose output it was.
     */
    @WithDefault("10s")
    Duration heartbeat();
}
