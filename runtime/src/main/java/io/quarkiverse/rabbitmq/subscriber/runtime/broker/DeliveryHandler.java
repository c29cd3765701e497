package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

/**
 * Receives a consumer's deliveries, in order, on the thread that reads the connection (amqp-client's reader: see
 * {@code ReaderThreadDispatch}; a thread closing one of the connection's channels may run a few too; the in-process
 * broker's delivering thread): it must hand them off, never process them, block, or wait for a reply from the broker,
 * which only that thread would read. It must not throw either: a delivery it cannot take is its own failure to report
 * (the subscribers' consumer reports it to its supervisor), and neither broker catches for it.
 */
@FunctionalInterface
public interface DeliveryHandler {

    void delivered(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body);

    /** The broker cancelled the consumer (its queue was deleted, for one). */
    default void cancelled() {
    }

}
