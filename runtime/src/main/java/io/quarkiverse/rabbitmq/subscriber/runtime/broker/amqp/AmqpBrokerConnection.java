package io.quarkiverse.rabbitmq.subscriber.runtime.broker.amqp;

import java.io.IOException;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Recoverable;
import com.rabbitmq.client.RecoveryListener;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;

/** A connection to a real RabbitMQ server through amqp-client. */
public final class AmqpBrokerConnection implements BrokerConnection {

    private final Connection connection;
    private final String description;
    /** The user it logged in as (null: cannot tell); see {@link BrokerConnection#user}. */
    private final java.util.function.Supplier<String> user;
    private volatile String blockedReason;

    public AmqpBrokerConnection(Connection connection, String description) {
        this(connection, description, () -> null);
    }

    public AmqpBrokerConnection(Connection connection, String description, java.util.function.Supplier<String> user) {
        this.connection = connection;
        this.description = description;
        this.user = user;
        connection.addBlockedListener(reason -> blockedReason = reason, () -> blockedReason = null);
    }

    @Override
    public java.util.Optional<String> blockedBecause() {
        return java.util.Optional.ofNullable(blockedReason);
    }

    @Override
    public BrokerChannel createChannel() throws IOException {
        return new AmqpBrokerChannel(connection.createChannel());
    }

    @Override
    public String remoteNode() {
        java.net.InetAddress remote = connection.getAddress();
        return remote == null ? describe() : remote.getHostAddress() + ":" + connection.getPort();
    }

    @Override
    public boolean isOpen() {
        return connection.isOpen();
    }

    @Override
    public void onConnectionEvents(ConnectionListener listener) {
        connection.addShutdownListener(signal -> {
            if (!signal.isInitiatedByApplication()) {
                listener.lost(signal.getMessage());
            }
        });
        if (connection instanceof Recoverable recoverable) {
            recoverable.addRecoveryListener(new RecoveryListener() {
                @Override
                public void handleRecovery(Recoverable recovered) {
                    listener.recovered();
                }

                @Override
                public void handleRecoveryStarted(Recoverable recovering) {
                }
            });
        }
    }

    @Override
    public void close() {
        // Closed even when it is not open: a connection the broker closed (a connection error, such as declaring an
        // exchange of a type it does not know) is only waiting for amqp-client's recovery to open it again, and this
        // close is what stops that (amqp-client marks it closed by the application before closing the current
        // connection, which throws when that one is closed already). Skipped, the recovery opened a connection nobody
        // owned any more: an application refused at startup left it open behind it.
        try {
            connection.close(5_000);
        } catch (Exception ignored) {
            // already closed by the server
        }
    }

    @Override
    public String serverVersion() {
        Object version = connection.getServerProperties().get("version");
        return version == null ? "" : version.toString();
    }

    @Override
    public String user() {
        return user.get();
    }

    @Override
    public String describe() {
        return "RabbitMQ at " + description;
    }
}
