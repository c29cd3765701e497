package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

/**
 * Receives a consumer's deliveries, in order, on the thread that reads the connection (amqp-client's reader: see
 * {@code ReaderThreadDispatch}; a thread closing one of the connection's channels may run a few too; the in-process
 * broker's delivering thread): it must hand them off, never process them, block, or wait for a reply from the broker,
 * which only that thread would read.
 */
@FunctionalInterface
public interface DeliveryHandler {

    void delivered(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body);

    /** The broker cancelled the consumer (its queue was deleted, for one). */
    default void cancelled() {
    }

    /**
     * {@link #delivered} threw (it should not). Both brokers report it here, on the delivering thread, and go on: the
     * channel stays open and its consumer keeps its place. A subscriber subscribes again on a fresh channel, which gives
     * the unsettled deliveries back; by default the failure is only logged.
     */
    default void failed(Throwable cause) {
        org.jboss.logging.Logger.getLogger(DeliveryHandler.class).errorf(cause, "A consumer failed taking a delivery");
    }
}
