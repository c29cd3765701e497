package io.quarkiverse.rabbitmq.subscriber.runtime.topology;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;

/**
 * Makes sure the queues the subscribers consume exist before any consumer starts: it declares them (durable, with the
 * arguments the subscriber implies), or, when declaration is off, checks them passively and refuses to start naming
 * every one that is missing.
 */
public final class TopologyDeclarer {

    private TopologyDeclarer() {
    }

    /** The arguments a subscriber's queue is declared with. */
    public static Map<String, Object> queueArguments(SubscriberDefinition definition) {
        Map<String, Object> arguments = new HashMap<>();
        if (definition.quorum) {
            arguments.put("x-queue-type", "quorum");
            if (definition.deliveryLimit >= 0) {
                arguments.put("x-delivery-limit", definition.deliveryLimit);
            }
        }
        return arguments;
    }

    public static void declare(BrokerConnection connection, List<SubscriberDefinition> definitions) throws IOException {
        for (SubscriberDefinition definition : definitions) {
            // A failed declaration closes its channel, so each queue gets its own.
            try (BrokerChannel channel = connection.createChannel()) {
                channel.declareQueue(definition.queue, true, false, false, queueArguments(definition));
            } catch (BrokerException e) {
                throw new IllegalStateException("Cannot declare queue '" + definition.queue + "' for " + definition.method
                        + " with arguments " + queueArguments(definition) + ": " + e.replyText()
                        + ". A queue that exists keeps the arguments it was declared with: delete it or make the "
                        + "@Subscriber match it.", e);
            }
        }
    }

    public static void checkExists(BrokerConnection connection, List<SubscriberDefinition> definitions)
            throws IOException {
        List<String> missing = new ArrayList<>();
        for (SubscriberDefinition definition : definitions) {
            try (BrokerChannel channel = connection.createChannel()) {
                channel.declareQueuePassive(definition.queue);
            } catch (BrokerException e) {
                if (e.replyCode() != BrokerException.NOT_FOUND) {
                    throw e;
                }
                missing.add("'" + definition.queue + "' (" + definition.method + ")");
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("quarkus.rabbitmq-subscriber.declare-topology is false and "
                    + (missing.size() == 1 ? "this queue does" : "these queues do") + " not exist on the broker: "
                    + String.join(", ", missing) + ". Declare them, or turn declare-topology on.");
        }
    }

}
