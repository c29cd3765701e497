package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import java.io.IOException;

/**
 * A connection to a RabbitMQ server, as the engine needs it. Two implementations: over amqp-client to a real
 * server, and to the in-process broker. Neither holds retry, delay or topology logic: the engine owns that, and a
 * broker only does what a RabbitMQ server does.
 */
public interface BrokerConnection extends AutoCloseable {

    BrokerChannel createChannel() throws IOException;

    boolean isOpen();

    /** Closes the connection and its channels; unsettled deliveries go back to their queues. Never throws. */
    @Override
    void close();

    /** Where this connection goes, for messages (never with a password). */
    String describe();
}
