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

    @Override
    public void handleUnexpectedConnectionDriverException(Connection connection, Throwable exception) {
        LOG.debugf("The connection to RabbitMQ failed: %s", exception.toString());
    }

    @Override
    public void handleConnectionRecoveryException(Connection connection, Throwable exception) {
        LOG.debugf("Reconnecting to RabbitMQ failed, trying again: %s", exception.toString());
    }
}
