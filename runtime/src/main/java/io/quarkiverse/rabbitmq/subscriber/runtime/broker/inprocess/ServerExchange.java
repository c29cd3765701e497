package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** An exchange of the in-process broker and how it routes: default, direct, fanout, topic, headers. */
final class ServerExchange {

    record Binding(ServerQueue queue, String routingKey, Map<String, Object> arguments) {
    }

    final String name;
    final String type;
    final boolean durable;
    final boolean autoDelete;
    final Map<String, Object> arguments;
    final List<Binding> bindings = new ArrayList<>();

    ServerExchange(String name, String type, boolean durable, boolean autoDelete, Map<String, Object> arguments) {
        this.name = name;
        this.type = type;
        this.durable = durable;
        this.autoDelete = autoDelete;
        this.arguments = arguments;
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

    Set<ServerQueue> route(String routingKey, Map<String, Object> headers, Map<String, ServerQueue> queues) {
        Set<ServerQueue> targets = new LinkedHashSet<>();
        if (name.isEmpty()) {
            ServerQueue queue = queues.get(routingKey);
            if (queue != null) {
                targets.add(queue);
            }
            return targets;
        }
        String routing = routingType();
        for (Binding binding : bindings) {
            boolean matches = switch (routing) {
                case "fanout" -> true;
                case "topic" -> TopicPattern.matches(binding.routingKey(), routingKey);
                case "headers" -> headersMatch(binding.arguments(), headers);
                default -> binding.routingKey().equals(routingKey);
            };
            if (matches) {
                targets.add(binding.queue());
            }
        }
        return targets;
    }

    private static boolean headersMatch(Map<String, Object> arguments, Map<String, Object> headers) {
        boolean any = arguments != null && "any".equals(String.valueOf(arguments.get("x-match")));
        int matched = 0;
        int required = 0;
        if (arguments != null) {
            for (Map.Entry<String, Object> argument : arguments.entrySet()) {
                if (argument.getKey().startsWith("x-")) {
                    continue;
                }
                required++;
                Object value = headers == null ? null : headers.get(argument.getKey());
                if (value != null && String.valueOf(value).equals(String.valueOf(argument.getValue()))) {
                    matched++;
                }
            }
        }
        return any ? matched > 0 : matched == required;
    }
}
