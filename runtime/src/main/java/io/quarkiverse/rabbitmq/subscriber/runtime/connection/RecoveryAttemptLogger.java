package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import org.jboss.logging.Logger;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.impl.DefaultExceptionHandler;

/**
 * amqp-client's default handling, except for a lost connection: the engine logs one WARN when a connection is lost and
 * one INFO when its subscribers consume again, so the socket error that ends it and each failed reconnection attempt
 * in between (every 2 seconds while the broker is away) are DEBUG lines, not WARNs and ERRORs an operator reads as new
 * failures.
 */
final class RecoveryAttemptLogger extends DefaultExceptionHandler {

    private static final Logger LOG = Logger.getLogger(RecoveryAttemptLogger.class);

    private final int maxMessageSize;

    RecoveryAttemptLogger(int maxMessageSize) {
        this.maxMessageSize = maxMessageSize;
    }

    @Override
    public void handleUnexpectedConnectionDriverException(Connection connection, Throwable exception) {
        if (String.valueOf(exception.getMessage()).startsWith("Message body is too large")) {
            // Not a network fault: the message will come back after the reconnection and end it again.
            LOG.errorf("RabbitMQ delivered a message larger than quarkus.rabbitmq-subscriber.max-message-size (%d "
                    + "bytes), which the connection cannot read: it closed, and the message goes back to its queue and "
                    + "ends the next connection too. Raise max-message-size to RabbitMQ's max_message_size, or remove the "
                    + "message (%s)", maxMessageSize, exception.getMessage());
            return;
        }
        LOG.debugf("The connection to RabbitMQ failed: %s", exception.toString());
    }

    @Override
    public void handleConnectionRecoveryException(Connection connection, Throwable exception) {
        LOG.debugf("Reconnecting to RabbitMQ failed, trying again: %s", exception.toString());
    }
}
