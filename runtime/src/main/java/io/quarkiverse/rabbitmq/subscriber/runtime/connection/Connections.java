package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;

/**
 * Where the publisher gets its connection: an interface here, implemented by the engine, so the publishing layer does
 * not depend on the layer that owns the subscribers.
 */
public interface Connections {

    /** The publisher's own connection, to the broker the subscribers use, opened on first use. */
    BrokerConnection publishingConnection();
}
