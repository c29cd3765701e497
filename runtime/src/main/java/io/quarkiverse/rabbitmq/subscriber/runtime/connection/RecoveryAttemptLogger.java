package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.Consumer;
import com.rabbitmq.client.impl.DefaultExceptionHandler;

/**
 * amqp-client's exception handler, with two changes. Logging a lost connection: the engine logs one WARN when a
 * connection is lost and one INFO when its subscribers consume again, so the socket error that ends it is a DEBUG line,
 * and each failed reconnection attempt goes to the connector, which says why at WARN, paced (not an ERROR per
 * attempt, every second or two while the broker is away). Handling a consumer callback that throws: it logs the failure and
 * closes that
 * consumer's channel (so RabbitMQ requeues its unsettled deliveries) asynchronously, off the reader thread, which must
 * stay free to read the close-ok (see {@link #handleConsumerException}).
 */
final class RecoveryAttemptLogger extends DefaultExceptionHandler {

    private static final Logger LOG = Logger.getLogger(RecoveryAttemptLogger.class);

    private final int maxMessageSize;
    private final java.util.function.Consumer<Throwable> reconnectionFailed;
    private final java.util.function.Consumer<String> unreadableMessage;

    /**
     * @param reconnectionFailed told of each failed reconnection attempt (the connector says why, paced)
     * @param unreadableMessage told when a message the client cannot read ended the connection
     */
    RecoveryAttemptLogger(int maxMessageSize, java.util.function.Consumer<Throwable> reconnectionFailed,
            java.util.function.Consumer<String> unreadableMessage) {
        this.maxMessageSize = maxMessageSize;
        this.reconnectionFailed = reconnectionFailed;
        this.unreadableMessage = unreadableMessage;
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
        if (exception instanceof com.rabbitmq.client.MalformedFrameException
                && String.valueOf(exception.getMessage()).contains("nested")) {
            // A header table nested deeper than amqp-client reads (legal AMQP): every delivery of it ends the
            // connection. The engine finds its queue (UnreadableMessageFinder) and says so.
            LOG.debugf("The connection to RabbitMQ failed on a message it cannot read: %s", exception.toString());
            try {
                unreadableMessage.accept(exception.getMessage());
            } catch (RuntimeException e) {
                LOG.debugf("Reporting an unreadable message failed: %s", e);
            }
            return;
        }
        LOG.debugf("The connection to RabbitMQ failed: %s", exception.toString());
    }

    @Override
    public void handleConnectionRecoveryException(Connection connection, Throwable exception) {
        LOG.debugf("Reconnecting to RabbitMQ failed, trying again: %s", exception.toString());
        try {
            reconnectionFailed.accept(exception);
        } catch (RuntimeException e) {
            LOG.debugf("Reporting a failed reconnection failed: %s", e);
        }
    }

    /**
     * A consumer callback threw (none should: they only queue work). As amqp-client does, the channel is closed, so
     * RabbitMQ requeues what it delivered there; but not on this thread: callbacks run on the connection's reader
     * thread ({@link ReaderThreadDispatch}), and closing a channel waits for the broker's close-ok, which only that
     * thread reads: every channel of the connection would wait with it, until the close timed out (10 minutes by
     * default). Subscriber deliveries never come here (their failures go to
     * {@code DeliveryHandler.failed}); this is for amqp-client's other callbacks.
     */
    @Override
    public void handleConsumerException(Channel channel, Throwable exception, Consumer consumer, String consumerTag,
            String methodName) {
        // Nothing may escape: amqp-client would interrupt the reader thread, which ends the connection's I/O.
        try {
            LOG.errorf(exception, "The consumer %s on channel %d failed in %s; closing the channel (RabbitMQ requeues "
                    + "its unsettled deliveries)", consumerTag, channel.getChannelNumber(), methodName);
            java.util.concurrent.CompletableFuture.runAsync(() -> {
                try {
                    channel.close(AMQP.REPLY_SUCCESS, "Closed after consumer " + consumerTag + " failed in " + methodName);
                } catch (Exception e) {
                    LOG.debugf("Closing channel %d after its consumer failed: %s", channel.getChannelNumber(), e);
                }
            });
        } catch (Throwable t) {
            LOG.debugf("Handling the failure of consumer %s failed: %s", consumerTag, t);
        }
    }
}
