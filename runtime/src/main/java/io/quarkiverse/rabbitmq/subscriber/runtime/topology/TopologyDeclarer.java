package io.quarkiverse.rabbitmq.subscriber.runtime.topology;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;

import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberDefinition;

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

    public static void declare(Connection connection, List<SubscriberDefinition> definitions) throws IOException {
        for (SubscriberDefinition definition : definitions) {
            // A failed declaration closes its channel, so each queue gets its own.
            Channel channel = connection.createChannel();
            try {
                channel.queueDeclare(definition.queue, true, false, false, queueArguments(definition));
            } catch (IOException e) {
                throw new IllegalStateException("Cannot declare queue '" + definition.queue + "' for " + definition.method
                        + " with arguments " + queueArguments(definition) + ": " + serverReason(e)
                        + ". A queue that exists keeps the arguments it was declared with: delete it or make the "
                        + "@Subscriber match it.", e);
            } finally {
                closeQuietly(channel);
            }
        }
    }

    public static void checkExists(Connection connection, List<SubscriberDefinition> definitions) throws IOException {
        List<String> missing = new ArrayList<>();
        for (SubscriberDefinition definition : definitions) {
            Channel channel = connection.createChannel();
            try {
                channel.queueDeclarePassive(definition.queue);
            } catch (IOException e) {
                missing.add("'" + definition.queue + "' (" + definition.method + ")");
            } finally {
                closeQuietly(channel);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("quarkus.rabbitmq-subscriber.declare-topology is false and "
                    + (missing.size() == 1 ? "this queue does" : "these queues do") + " not exist on the broker: "
                    + String.join(", ", missing) + ". Declare them, or turn declare-topology on.");
        }
    }

    /** The server's own words (e.g. PRECONDITION_FAILED - inequivalent arg ...), not amqp-client's wrapping. */
    static String serverReason(IOException e) {
        if (e.getCause() instanceof ShutdownSignalException signal && signal.getReason() != null) {
            String reason = signal.getReason().toString();
            int text = reason.indexOf("reply-text=");
            if (text >= 0) {
                int end = reason.indexOf(", class-id", text);
                return reason.substring(text + "reply-text=".length(), end < 0 ? reason.length() : end);
            }
            return reason;
        }
        return e.toString();
    }

    private static void closeQuietly(Channel channel) {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (Exception ignored) {
            // already closed by the broker
        }
    }
}
