package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer.Version;

/**
 * An exchange of the in-process broker and how it routes: default, direct, fanout, topic, headers, and the
 * consistent-hash exchange ({@link ConsistentHash}).
 */
final class ServerExchange {

    /** A binding is its queue, key and arguments: the same three again are the same binding. */
    record Binding(ServerQueue queue, String routingKey, Map<String, Object> arguments) {

        boolean is(ServerQueue queue, String routingKey, Map<String, Object> arguments) {
            return this.queue == queue && this.routingKey.equals(routingKey)
                    && FieldValues.sameTable(this.arguments, arguments);
        }
    }

    final String name;
    final String type;
    final boolean durable;
    final boolean autoDelete;
    final Map<String, Object> arguments;
    final List<Binding> bindings = new ArrayList<>();
    /** Whose rules a headers exchange compares values by: 3.10 and 4.x differ on floats and timestamps. */
    private final Version version;

    ServerExchange(String name, String type, boolean durable, boolean autoDelete, Map<String, Object> arguments,
            Version version) {
        this.name = name;
        this.type = type;
        this.durable = durable;
        this.autoDelete = autoDelete;
        this.arguments = arguments;
        this.version = version;
    }

    boolean isDelayed() {
        return "x-delayed-message".equals(type);
    }

    /** How this exchange routes once a delayed message is due: its x-delayed-type. */
    String routingType() {
        if (isDelayed()) {
            Object delayedType = arguments.get("x-delayed-type");
            return delayedType == null ? "direct" : delayedType.toString();
        }
        return type;
    }

    Set<ServerQueue> route(String routingKey, AMQP.BasicProperties properties, Map<String, ServerQueue> queues) {
        Set<ServerQueue> targets = new LinkedHashSet<>();
        Map<String, Object> headers = properties == null ? null : properties.getHeaders();
        if (name.isEmpty()) {
            ServerQueue queue = queues.get(routingKey);
            if (queue != null) {
                targets.add(queue);
            }
            return targets;
        }
        String routing = routingType();
        if (routing.equals(ConsistentHash.TYPE)) {
            ServerQueue queue = ConsistentHash.route(this, routingKey, properties);
            if (queue != null) {
                targets.add(queue);
            }
            return targets;
        }
        for (Binding binding : bindings) {
            boolean matches = switch (routing) {
                case "fanout" -> true;
                case "topic" -> TopicPattern.matches(binding.routingKey(), routingKey);
                case "headers" -> HeadersMatch.matches(binding.arguments(), headers, version);
                default -> binding.routingKey().equals(routingKey);
            };
            if (matches) {
                targets.add(binding.queue());
            }
        }
        return targets;
    }
}
