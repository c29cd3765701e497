package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.MetadataStoreTimeout;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.amqp.AmqpBrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.BrokerSettings.SaslMechanism;
import io.quarkiverse.rabbitmq.subscriber.runtime.security.ConnectionFailure;
import io.quarkiverse.rabbitmq.subscriber.runtime.security.ConnectionSecurity;
import io.quarkiverse.rabbitmq.subscriber.runtime.security.FailurePacer;
import io.quarkiverse.rabbitmq.subscriber.runtime.security.TlsSettings;

/**
 * Opens a connection to RabbitMQ (the subscribers have one, the publisher another). amqp-client's automatic recovery
 * reopens the connection and its channels after a cut; its topology recovery is off, because it replays declarations
 * recorded on channels the engine has closed since (and logs an ERROR for each): the engine declares and consumes
 * again itself once the connection is back ({@code BrokerConnection.onConnectionEvents}). Deliveries unsettled at
 * the cut are requeued by the broker, so none is lost. A reconnection that fails says why at WARN (a refused password
 * or certificate, a host that does not answer), once per kind of failure and then once per longest back-off wait.
 */
public final class BrokerConnector {

    private static final Logger LOG = Logger.getLogger(BrokerConnector.class);

    private BrokerConnector() {
    }

    /** RabbitMQ 3.x's default {@code max_message_size}. */
    public static final int DEFAULT_MAX_MESSAGE_SIZE = 128 * 1024 * 1024;

    /** Told of each failed reconnection, classified, and of messages that end the connection; must not wait. */
    public interface ReconnectionFailures {
        ReconnectionFailures NONE = failure -> {
        };

        void failed(ConnectionFailure failure);

        /** A message the client cannot read (a header table nested too deep) ended the connection. */
        default void unreadableMessage(String what) {
        }
    }

    /**
     * Connects with a fixed 2-second reconnection delay, {@link #DEFAULT_MAX_MESSAGE_SIZE} and no TLS of its own (the
     * tests' connections).
     *
     * @param nio amqp-client's NIO mode ({@code quarkus.rabbitmq-subscriber.nio}) instead of the blocking one. The
     *        blocking mode reads cheaper (plain drains are 12-23% faster), but writes every frame with its own socket
     *        write; NIO batches queued frames, so a quorum queue's retry, a {@code basic.reject} per delivery, costs
     *        far less with it. See the Performance page for the measured trade-off.
     */
    public static BrokerConnection connect(BrokerAddress address, String connectionName, boolean nio) {
        return connect(address, connectionName, nio, new Backoff(java.time.Duration.ofSeconds(2),
                java.time.Duration.ofSeconds(2), 0), DEFAULT_MAX_MESSAGE_SIZE,
                address.tls() ? new ConnectionSecurity(TlsSettings.choose(true, java.util.Optional.empty(), false, null),
                        SaslMechanism.PLAIN, null) : ConnectionSecurity.PLAIN_TEXT,
                ReconnectionFailures.NONE);
    }

    /**
     * @param backoff how long to wait before each reconnection attempt
     * @param maxMessageSize the largest body the connection reads ({@code quarkus.rabbitmq-subscriber.max-message-size})
     * @param security its TLS, login mechanism and credentials
     * @param failures told of each failed reconnection (readiness shows the latest)
     */
    public static BrokerConnection connect(BrokerAddress address, String connectionName, boolean nio, Backoff backoff,
            int maxMessageSize, ConnectionSecurity security, ReconnectionFailures failures) {
        return connect(address, connectionName, nio, backoff, maxMessageSize, security, DEFAULT_HEARTBEAT, failures);
    }

    /** The heartbeat asked for where the configuration says nothing ({@code quarkus.rabbitmq-subscriber.heartbeat}). */
    public static final java.time.Duration DEFAULT_HEARTBEAT = java.time.Duration.ofSeconds(10);

    /**
     * @param heartbeat the heartbeat to ask for, unless the url's {@code heartbeat} parameter says another (amqp-client
     *        reads it from the URI; setting one here as well would silently override it)
     */
    public static BrokerConnection connect(BrokerAddress address, String connectionName, boolean nio, Backoff backoff,
            int maxMessageSize, ConnectionSecurity security, java.time.Duration heartbeat,
            ReconnectionFailures failures) {
        ConnectionFactory factory = new ConnectionFactory();
        try {
            factory.setUri(new java.net.URI(address.plainUri()));
        } catch (Exception e) {
            // Neither the exception's message nor its cause: both may quote the URI, password included.
            String reason = e instanceof java.net.URISyntaxException syntax ? syntax.getReason()
                    : e.getClass().getSimpleName();
            throw new IllegalStateException("Invalid RabbitMQ URI " + address.redacted()
                    + " (quarkus.rabbitmq-subscriber.url): " + reason);
        }
        security.applyTo(factory);
        // A refused password or certificate keeps failing at every attempt: one WARN per kind, then one every 30 s (or
        // per longest back-off wait, if longer).
        FailurePacer pacer = new FailurePacer(Math.max(30_000, backoff.withoutJitter(Integer.MAX_VALUE)),
                System::currentTimeMillis);
        factory.setAutomaticRecoveryEnabled(true);
        factory.setTopologyRecoveryEnabled(false);
        factory.setExceptionHandler(new RecoveryAttemptLogger(maxMessageSize, failure -> {
            ConnectionFailure classified = ConnectionFailure.of(failure, security.user(address.username()),
                    address.hostAndPort(), address.virtualHost());
            if (pacer.shouldLog(classified)) {
                int quiet = pacer.suppressedSinceLast();
                LOG.warnf("Reconnecting to RabbitMQ at %s failed: %s%s. Trying again (%s)", address.describe(),
                        classified, quiet == 0 ? "" : " (" + quiet + " more attempts failed so since the last WARN)",
                        backoff.describe());
            }
            failures.failed(classified);
        }, failures::unreadableMessage));
        factory.setMaxInboundMessageBodySize(maxMessageSize);
        factory.setRecoveryDelayHandler(backoff);
        if (address.queryParameter("heartbeat").isEmpty()) {
            factory.setRequestedHeartbeat((int) heartbeat(address, heartbeat).toSeconds());
        }
        factory.setConnectionTimeout(10_000);
        if (nio) {
            factory.useNio();
            // A connection that fails inside the NIO loop (a frame it cannot read: UnreadableMessageIsolationTest) is
            // recovered on that loop's thread; with one I/O thread the new connection's handshake waits for the loop
            // it blocks, and times out at every attempt. A second I/O thread reads it.
            factory.setNioParams(factory.getNioParams().setNbIoThreads(2));
        }
        // Consumer callbacks run on the reader thread: see ReaderThreadDispatch.
        factory.setSharedExecutor(ReaderThreadDispatch.INSTANCE);
        Connection connection;
        // With several nodes the client tries them in the order listed, now and at each reconnection, a node cut off
        // from its cluster's majority last (NodeOrder).
        NodeOrder order = address.nodes().isEmpty() ? null
                : new NodeOrder(address.nodes(), System::currentTimeMillis);
        try {
            connection = order == null ? factory.newConnection(connectionName)
                    : factory.newConnection(ReaderThreadDispatch.INSTANCE, order, connectionName);
        } catch (Exception e) {
            ConnectionFailure classified = ConnectionFailure.of(e, security.user(address.username()), address.hostAndPort(),
                    address.virtualHost());
            String fix = switch (classified.kind()) {
                case AUTHENTICATION_REFUSED -> security.external() ? ""
                        : ". Check the user and password (quarkus.rabbitmq-subscriber.username and .password, the "
                                + "url's, or the credentials provider's)";
                case UNREACHABLE, OTHER -> ". Set quarkus.rabbitmq-subscriber.url (and addresses, for a cluster) to "
                        + "the broker's address";
                default -> "";
            };
            throw new IllegalStateException("Cannot connect to RabbitMQ at " + address.describe() + " ("
                    + security.describe() + "): " + classified + fix + ".", e);
        }
        warnIfUnverified(security, address);
        PlaintextPassword.warnIfSent(address, security, connectionName);
        Connection opened = connection;
        if (order != null) {
            order.connectedTo(opened.getAddress(), opened.getPort());
        }
        connection.addShutdownListener(signal -> {
            if (!signal.isInitiatedByApplication() && signal.getReason() instanceof AMQP.Connection.Close close) {
                MetadataStoreTimeout.of(close.getReplyCode(), close.getReplyText())
                        .ifPresent(timeout -> warnOfMinority(timeout, order, address));
            }
        });
        if (connection instanceof Recoverable recoverable) {
            recoverable.addRecoveryListener(new RecoveryListener() {
                @Override
                public void handleRecovery(Recoverable recovered) {
                    pacer.reset();
                    if (order != null) {
                        order.connectedTo(opened.getAddress(), opened.getPort());
                    }
                    warnIfUnverified(security, address);
                }

                @Override
                public void handleRecoveryStarted(Recoverable recovering) {
                }
            });
        }
        return new AmqpBrokerConnection(connection, address.describe(),
                () -> security.external() ? null : security.user(address.username()));
    }

    /**
     * The heartbeat a connection to this address asks for: the url's {@code heartbeat} parameter (seconds, as
     * amqp-client reads it), else the configured one, in whole seconds from 1 to AMQP's 65,535. RabbitMQ may lower it.
     */
    public static java.time.Duration heartbeat(BrokerAddress address, java.time.Duration configured) {
        long seconds;
        try {
            seconds = address.queryParameter("heartbeat").map(Long::parseLong).orElse(configured.toSeconds());
        } catch (NumberFormatException e) {
            // amqp-client refuses it at setUri, naming the parameter.
            seconds = configured.toSeconds();
        }
        return java.time.Duration.ofSeconds(seconds == 0 ? 0 : Math.max(1, Math.min(65_535, seconds)));
    }

    /**
     * A node closed the connection because its metadata store timed out: it cannot declare anything until it is back
     * with its cluster's majority, so the reconnection goes to the other nodes first.
     */
    private static void warnOfMinority(MetadataStoreTimeout timeout, NodeOrder order, BrokerAddress address) {
        String node = timeout.describeNode();
        if (order == null || order.size() < 2) {
            LOG.warnf("%s closed the connection to %s: its metadata store timed out (%s), as it does on a node cut off "
                    + "from the majority of its cluster, where nothing can be declared. List every node of the cluster "
                    + "in quarkus.rabbitmq-subscriber.addresses so that the application can declare on another one",
                    node, address.describe(), timeout.replyText());
            return;
        }
        String at = order.avoidCurrent().map(listed -> " (" + listed + ")").orElse("");
        LOG.warnf("%s%s closed the connection: its metadata store timed out (%s), as it does on a node cut off from the "
                + "majority of its cluster, where nothing can be declared. Reconnecting to the other nodes of "
                + "quarkus.rabbitmq-subscriber.addresses first (this one last for the next %d minutes)", node, at,
                timeout.replyText(), NodeOrder.AVOID_MILLIS / 60_000);
    }

    private static void warnIfUnverified(ConnectionSecurity security, BrokerAddress address) {
        if (security.tls().trustsAll()) {
            LOG.warnf("Connected to RabbitMQ at %s with %s: for development only, never in production", address.describe(),
                    security.tls().description());
        }
    }
}
