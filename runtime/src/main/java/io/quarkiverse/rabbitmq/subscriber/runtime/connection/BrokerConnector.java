package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import com.rabbitmq.client.ConnectionFactory;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.amqp.AmqpBrokerConnection;

/**
 * Opens a connection to RabbitMQ (the subscribers have one, the publisher another). amqp-client's automatic recovery
 * reopens the connection and its channels after a cut; its topology recovery is off, because it replays declarations
 * recorded on channels the engine has closed since (and logs an ERROR for each): the engine declares and consumes
 * again itself once the connection is back ({@code BrokerConnection.onConnectionEvents}). Deliveries unsettled at
 * the cut are requeued by the broker, so none is lost.
 */
public final class BrokerConnector {

    private BrokerConnector() {
    }

    /** RabbitMQ 3.x's default {@code max_message_size}. */
    public static final int DEFAULT_MAX_MESSAGE_SIZE = 128 * 1024 * 1024;

    /**
     * Connects with a fixed 2-second reconnection delay and {@link #DEFAULT_MAX_MESSAGE_SIZE}.
     *
     * @param nio amqp-client's NIO mode ({@code quarkus.rabbitmq-subscriber.nio}) instead of the blocking one. The
     *        blocking mode reads cheaper (plain drains are 12-23% faster), but writes every frame with its own socket
     *        write; NIO batches queued frames, so a quorum queue's retry, a {@code basic.reject} per delivery, costs
     *        far less with it. See the Performance page for the measured trade-off.
     */
    public static BrokerConnection connect(BrokerAddress address, String connectionName, boolean nio) {
        return connect(address, connectionName, nio, new Backoff(java.time.Duration.ofSeconds(2),
                java.time.Duration.ofSeconds(2), 0), DEFAULT_MAX_MESSAGE_SIZE);
    }

    /**
     * @param backoff how long to wait before each reconnection attempt
     * @param maxMessageSize the largest body the connection reads ({@code quarkus.rabbitmq-subscriber.max-message-size})
     */
    public static BrokerConnection connect(BrokerAddress address, String connectionName, boolean nio, Backoff backoff,
            int maxMessageSize) {
        ConnectionFactory factory = new ConnectionFactory();
        try {
            factory.setUri(new java.net.URI(address.uri()));
        } catch (Exception e) {
            // Neither the exception's message nor its cause: both may quote the URI, password included.
            String reason = e instanceof java.net.URISyntaxException syntax ? syntax.getReason()
                    : e.getClass().getSimpleName();
            throw new IllegalStateException("Invalid RabbitMQ URI " + address.redacted()
                    + " (quarkus.rabbitmq-subscriber.url): " + reason);
        }
        factory.setAutomaticRecoveryEnabled(true);
        factory.setTopologyRecoveryEnabled(false);
        factory.setExceptionHandler(new RecoveryAttemptLogger(maxMessageSize));
        factory.setMaxInboundMessageBodySize(maxMessageSize);
        factory.setRecoveryDelayHandler(backoff);
        factory.setRequestedHeartbeat(30);
        factory.setConnectionTimeout(10_000);
        if (nio) {
            factory.useNio();
        }
        // Consumer callbacks run on the reader thread: see ReaderThreadDispatch.
        factory.setSharedExecutor(ReaderThreadDispatch.INSTANCE);
        try {
            // With several nodes the client tries them in order, now and at each reconnection.
            return new AmqpBrokerConnection(address.nodes().isEmpty() ? factory.newConnection(connectionName)
                    : factory.newConnection(address.nodes(), connectionName), address.describe());
        } catch (Exception e) {
            String fix = e instanceof com.rabbitmq.client.AuthenticationFailureException
                    ? "Check the user and password (quarkus.rabbitmq-subscriber.username and .password, or the url's)"
                    : "Set quarkus.rabbitmq-subscriber.url (and addresses, for a cluster) to the broker's address";
            throw new IllegalStateException("Cannot connect to RabbitMQ at " + address.describe() + ": " + e + ". "
                    + fix + ".", e);
        }
    }
}
