package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.StreamException;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.EmbeddedBroker;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.StreamReading;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerAddress;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;

/**
 * Where stream subscriptions read their streams: the in-process broker's logs when it is the broker, else RabbitMQ's
 * stream protocol, through one stream-client {@link Environment} opened when the first stream subscription attaches
 * (an application without streams never opens one), on the broker's host at
 * {@code quarkus.rabbitmq-subscriber.stream-port}, with its TLS, login and virtual host ({@link StreamLogin}). The client
 * recovers its own
 * connections and consumers; it is closed at shutdown.
 */
@Singleton
public class StreamEnvironments {

    private static final Logger LOG = Logger.getLogger(StreamEnvironments.class);

    @Inject
    SubscriberConfig config;

    /** One environment per broker that has stream subscriptions, by the broker's name. */
    private final java.util.Map<String, Environment> environments = new java.util.HashMap<>();
    /** The channel of each stream subscription, by its queue (the stream, or the super stream). */
    private final java.util.Map<String, StreamChannel> channels = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * A stream subscription's channel over {@code amqp}, reading the stream (or the super stream's partitions) from
     * the broker the session chose: the in-process broker's logs, or RabbitMQ's stream protocol.
     *
     * @throws IllegalStateException naming what is missing: the stream protocol's listener (the {@code rabbitmq_stream}
     *         plugin)
     */
    public BrokerChannel channel(BrokerSession session, BrokerChannel amqp, String stream, boolean superStream) {
        StreamReading reading = session.embeddedBroker().map(EmbeddedBroker::streams)
                .orElseGet(() -> new ClientStreamReading(environment(session, stream)));
        // From RabbitMQ 3.11 one consumer of a name reads a stream at a time, the others standing by: instances that
        // share the name share one position instead of each reading everything. Before, every one reads it all.
        boolean singleActive = io.quarkiverse.rabbitmq.subscriber.runtime.broker.ServerVersion
                .of(session.connection().serverVersion()).atLeast(3, 11);
        StreamChannel channel = new StreamChannel(amqp, reading, consumerName(stream), superStream, singleActive,
                () -> session.clock().millis());
        // The last one attached is the one reading: a subscription attaches again after a loss.
        channels.put(stream, channel);
        return channel;
    }

    /**
     * The lag of {@code stream}, a stream subscription's stream or a partition of its super stream
     * ({@link StreamChannel#lag}); NaN when none reads it here.
     */
    public double lag(String subscription, String stream) {
        StreamChannel channel = channels.get(subscription);
        return channel == null ? Double.NaN : channel.lag(stream);
    }

    /**
     * Why stream subscription {@code subscription} reads nothing although it consumes (its connection is lost and
     * being recovered), or null ({@link StreamChannel#notReadingBecause}); null for a queue's subscription.
     */
    public String notReadingBecause(String subscription) {
        StreamChannel channel = channels.get(subscription);
        return channel == null ? null : channel.notReadingBecause();
    }

    /** Whether this instance is the active consumer of {@code partition} of super stream {@code superStream}. */
    public boolean activeOn(String superStream, String partition) {
        StreamChannel channel = channels.get(superStream);
        return channel != null && channel.activePartitions().contains(partition);
    }

    /** The partitions of super stream {@code superStream} this instance is the active consumer of, by index, sorted. */
    public java.util.List<Integer> activePartitions(String superStream) {
        StreamChannel channel = channels.get(superStream);
        String prefix = superStream + "-";
        return channel == null ? java.util.List.of()
                : channel.activePartitions().stream().filter(partition -> partition.startsWith(prefix)
                        && partition.substring(prefix.length()).matches("[0-9]+"))
                        .map(partition -> Integer.valueOf(partition.substring(prefix.length()))).sorted().toList();
    }

    private synchronized Environment environment(BrokerSession session, String stream) {
        Environment environment = environments.get(session.name());
        if (environment != null) {
            return environment;
        }
        BrokerAddress address = session.address().orElseThrow();
        int port = session.settings().streamPort().orElse(address.tls() ? 5551 : 5552);
        try {
            com.rabbitmq.stream.EnvironmentBuilder builder = Environment.builder().uri(address.streamUri(port))
                    .id("quarkus-rabbitmq-subscriber").compressionCodecFactory(new GzipOnly())
                    .recoveryBackOffDelayPolicy(recoveryWaits(session.backoff()));
            StreamLogin.apply(builder, session.security().orElseThrow(), address);
            environment = builder.build();
            environments.put(session.name(), environment);
        } catch (com.rabbitmq.stream.AuthenticationFailureException e) {
            throw new IllegalStateException("Stream '" + stream + "': RabbitMQ refused the stream protocol's login on "
                    + address.streamHostAndPort(port) + " as " + session.security().orElseThrow().describe() + " ("
                    + causeOf(e) + "): the user needs the same permissions as on AMQP, on virtual host "
                    + address.virtualHost(), e);
        } catch (StreamException e) {
            String handshake = tlsFailure(e);
            if (handshake != null) {
                throw new IllegalStateException("Stream '" + stream + "': the TLS handshake of the stream protocol with "
                        + address.streamHostAndPort(port) + " failed (" + handshake + "), with "
                        + session.security().orElseThrow().tls().description() + ": the broker's certificate must be "
                        + "trusted and name the host the stream listener advertises (stream.advertised_host)", e);
            }
            throw new IllegalStateException("Stream '" + stream + "': RabbitMQ does not answer the stream protocol"
                    + (address.tls() ? " over TLS" : "") + " on " + address.streamHostAndPort(port) + " ("
                    + causeOf(e) + "): enable the rabbitmq_stream plugin (rabbitmq-plugins enable rabbitmq_stream)"
                    + (address.tls() ? " with a TLS listener (stream.listeners.ssl)" : "")
                    + ", or set quarkus.rabbitmq-subscriber.stream-port to its listener's port", e);
        }
        LOG.debugf("Reading streams from %s", address.streamHostAndPort(port));
        return environment;
    }

    /**
     * The stream client reconnects with the AMQP connections' waits ({@code quarkus.rabbitmq-subscriber.recovery.*}:
     * bounded exponential back-off with jitter) instead of its own fixed 5 seconds, so one setting says how soon a
     * service is back. The client counts attempts from 0, the back-off from 1.
     */
    private static com.rabbitmq.stream.BackOffDelayPolicy recoveryWaits(
            io.quarkiverse.rabbitmq.subscriber.runtime.connection.Backoff backoff) {
        return attempt -> java.time.Duration.ofMillis(backoff.getDelay(attempt + 1));
    }

    /** {@code stream-port}, else RabbitMQ's default: 5551 over TLS ({@code amqps://}), 5552 without. */
    /**
     * The name the consumer stores its offset under: {@code quarkus.rabbitmq-subscriber.streams."<stream>".consumer-name},
     * else the application's ({@code quarkus.application.name}).
     */
    private String consumerName(String stream) {
        SubscriberConfig.StreamSettings settings = config.streams().get(stream);
        return java.util.Optional.ofNullable(settings).flatMap(SubscriberConfig.StreamSettings::consumerName)
                .filter(name -> !name.isBlank())
                .or(() -> ConfigProvider.getConfig().getOptionalValue("quarkus.application.name", String.class))
                .filter(name -> !name.isBlank()).orElse(stream + "-consumer");
    }

    /** The TLS failure that stopped the connection, or null. */
    private static String tlsFailure(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof javax.net.ssl.SSLException || cause instanceof java.security.cert.CertificateException) {
                return cause.getMessage() == null ? cause.toString() : cause.getMessage();
            }
        }
        return null;
    }

    private static String causeOf(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }

    @PreDestroy
    synchronized void close() {
        environments.values().forEach(environment -> {
            try {
                environment.close();
            } catch (RuntimeException e) {
                LOG.debugf("Closing a stream environment failed (%s)", e.toString());
            }
        });
        environments.clear();
    }
}
