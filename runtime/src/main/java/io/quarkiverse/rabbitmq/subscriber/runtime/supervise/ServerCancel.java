package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;

/**
 * Why RabbitMQ cancelled a subscriber's consumer ({@code basic.cancel} carries no reason): its queue was deleted, or the
 * queue is still there, and then on RabbitMQ 4.3 it is a consumer timeout (a quorum queue's consumer that held a
 * delivery longer than {@code consumer_timeout} or its {@code x-consumer-timeout}; the delivery went back to the queue)
 * or the queue's leader moving to another node. Asked of the broker on the supervisor's lane, before the one line that
 * reports the loss; subscribing again is the next step either way (a deleted queue is declared again when the extension
 * declares topology, or found missing and retried).
 */
final class ServerCancel {

    /** What the consumer reports; the supervisor asks this class what it was. */
    static final String CANCELLED = "the broker cancelled its consumer";

    private ServerCancel() {
    }

    /** @param connection the subscribers' connection (may throw while it is down) */
    static String explain(java.util.function.Supplier<BrokerConnection> connection, String queue) {
        try (BrokerChannel channel = connection.get().createChannel()) {
            channel.declareQueuePassive(queue);
            return CANCELLED + " while queue '" + queue + "' still exists: on RabbitMQ 4.3 a consumer timeout (a "
                    + "delivery held longer than the broker's consumer_timeout or the consumer's x-consumer-timeout went "
                    + "back to the queue: make the handler faster or raise the timeout) or the queue's leader moving to "
                    + "another node";
        } catch (BrokerException e) {
            return e.replyCode() == BrokerException.NOT_FOUND ? CANCELLED + ": queue '" + queue + "' was deleted"
                    : CANCELLED + " (checking queue '" + queue + "' failed: " + e.replyText() + ")";
        } catch (Exception e) {
            return CANCELLED + " (queue '" + queue + "' could not be checked: " + e.getMessage() + ")";
        }
    }
}
