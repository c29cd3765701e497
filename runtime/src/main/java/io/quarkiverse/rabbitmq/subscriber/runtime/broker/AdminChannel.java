package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import java.io.IOException;
import java.util.Map;

/**
 * What tests and operator tools need beyond the runtime: deleting, purging, unbinding. The channels of both brokers are
 * admin channels, but the runtime holds them as {@link BrokerChannel}, so it cannot call these by mistake; code that
 * needs them asks for them with {@link #of}. Refusals are as on {@link BrokerChannel}.
 */
public interface AdminChannel extends BrokerChannel {

    /** Returns how many messages the queue held; a queue that does not exist is no error. */
    int deleteQueue(String queue) throws IOException;

    /** Returns how many messages were purged. */
    int purgeQueue(String queue) throws IOException;

    /** An exchange that does not exist is no error; the default and {@code amq.*} exchanges cannot be deleted. */
    void deleteExchange(String exchange) throws IOException;

    /**
     * queue.unbind: removes the binding of that queue, exchange, routing key and arguments (the arguments are part of
     * a binding's identity, as its key is). A binding, queue or exchange that does not exist is no error.
     */
    void unbindQueue(String queue, String exchange, String routingKey, Map<String, Object> arguments)
            throws IOException;

    /** The admin methods of a channel from either broker's {@link BrokerConnection#createChannel()}. */
    static AdminChannel of(BrokerChannel channel) {
        if (channel instanceof AdminChannel admin) {
            return admin;
        }
        throw new IllegalArgumentException("This channel has no admin methods (delete, purge, unbind): "
                + channel.getClass().getName() + " is not a channel of the amqp-client or in-process broker");
    }
}
