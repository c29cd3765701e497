package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;

/** What a supervisor needs from the engine that owns the connection. */
public interface Subscribing {
    /** The subscribers' connection (may throw while it is down or closed). */
    BrokerConnection connection();

    /** Declares (or checks) the queues this subscriber needs. */
    void prepareQueues(BrokerConnection connection) throws Exception;

    /**
     * Opens a channel and consumes on it; the consumer reports its loss with {@code generation} (see
     * {@link SubscriberSupervisor#lost}).
     */
    Attachment attach(BrokerConnection connection, SubscriberSupervisor supervisor, long generation) throws Exception;

    /** Told on the lane each time this subscriber consumes again after a loss or a cut. */
    void consumingAgain();
}
