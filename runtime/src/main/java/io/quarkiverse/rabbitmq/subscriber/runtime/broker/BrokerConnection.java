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

    /**
     * Tells the listener when the connection is lost and when it is open again. A connection that reopens itself
     * (amqp-client's automatic recovery) reopens its channels, with their prefetch and confirm mode, but recovers no
     * queue, binding or consumer: declaring and consuming again is the engine's job, so recovery has one owner. The
     * in-process broker's connection is never lost. Called on the client's own threads: hand off, never wait there.
     */
    default void onConnectionEvents(ConnectionListener listener) {
    }

    /** Why the broker blocks this connection's publishes right now (connection.blocked), if it does. */
    default java.util.Optional<String> blockedBecause() {
        return java.util.Optional.empty();
    }

    /**
     * The user this connection logged in as, which RabbitMQ checks a published {@code user-id} against; null where the
     * client cannot tell (an {@code EXTERNAL} login: the certificate names the user). Read at each call: a credentials
     * provider may have rotated it at the last reconnection.
     */
    default String user() {
        return null;
    }

    /**
     * The broker's version as it tells it when the connection opens ({@code 4.3.6}); empty where it does not say. What
     * a subscription may ask of the broker depends on it ({@link ServerVersion}).
     */
    default String serverVersion() {
        return "";
    }

    /** What {@link #onConnectionEvents} reports. */
    interface ConnectionListener {
        /** The connection went away without the application closing it. */
        void lost(String reason);

        /** The connection and its channels are open again. */
        void recovered();
    }

    /** Closes the connection and its channels; unsettled deliveries go back to their queues. Never throws. */
    @Override
    void close();

    /** The node this connection is on now ({@code 10.0.0.2:5672}), for messages; {@link #describe()} where unknown. */
    default String remoteNode() {
        return describe();
    }

    /** Where this connection goes, for messages (never with a password). */
    String describe();
}
