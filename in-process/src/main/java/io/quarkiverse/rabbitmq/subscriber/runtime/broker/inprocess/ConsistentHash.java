package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.rabbitmq.client.AMQP;

/**
 * The consistent-hash exchange of RabbitMQ's {@code rabbitmq_consistent_hash_exchange} plugin ({@code x-consistent-hash}):
 * each binding's key is its weight (a positive integer: that many buckets), and a message goes to the one queue whose
 * bucket its value falls in. The value is the routing key, or a header ({@code hash-header}), or a property
 * ({@code hash-property}: {@code message_id}, {@code correlation_id} or {@code timestamp}); a message without that
 * header or property is hashed on an empty value and still routed, as the plugin does. The same value lands in the same
 * queue while the bindings stay (jump consistent hash over the buckets, in binding order).
 * <p>
 * The plugin hashes with Erlang's {@code phash2}, this class with FNV-1a: a value may land in another queue here than
 * on RabbitMQ. What both keep (one queue per value, the same one every time, the refusals word for word) is what the
 * conformance scenarios compare; a test must not depend on which partition a key lands in.
 */
final class ConsistentHash {

    static final String TYPE = "x-consistent-hash";
    private static final Set<String> PROPERTIES = Set.of("message_id", "correlation_id", "timestamp");

    private ConsistentHash() {
    }

    /** Why RabbitMQ refuses the exchange's arguments (406), or null: both keys at once, or a property it cannot hash. */
    static String refusalOfArguments(Map<String, Object> arguments) {
        if (arguments.containsKey("hash-header") && arguments.containsKey("hash-property")) {
            return "PRECONDITION_FAILED - hash-header and hash-property are mutually exclusive";
        }
        Object property = arguments.get("hash-property");
        if (property != null && !PROPERTIES.contains(property.toString())) {
            return "PRECONDITION_FAILED - Unsupported property: " + property;
        }
        return null;
    }

    /** Why RabbitMQ refuses a binding (406), or null: its key is the binding's weight. */
    static String refusalOfBinding(String routingKey) {
        long weight;
        try {
            weight = Long.parseLong(routingKey);
        } catch (NumberFormatException e) {
            return "PRECONDITION_FAILED - The binding key must be an integer: <<\"" + routingKey + "\">>";
        }
        return weight <= 0 ? "PRECONDITION_FAILED - The binding key must be greater than 0" : null;
    }

    /** The queue the message goes to, or null when the exchange has no binding. */
    static ServerQueue route(ServerExchange exchange, String routingKey, AMQP.BasicProperties properties) {
        List<ServerExchange.Binding> bindings = exchange.bindings;
        long buckets = 0;
        for (ServerExchange.Binding binding : bindings) {
            buckets += Long.parseLong(binding.routingKey());
        }
        if (buckets == 0) {
            return null;
        }
        long bucket = jump(fnv1a(value(exchange.arguments, routingKey, properties)), buckets);
        for (ServerExchange.Binding binding : bindings) {
            bucket -= Long.parseLong(binding.routingKey());
            if (bucket < 0) {
                return binding.queue();
            }
        }
        throw new IllegalStateException("bucket beyond the bindings' weights");
    }

    /** What the exchange hashes: the header or property its arguments name, else the routing key. */
    private static String value(Map<String, Object> arguments, String routingKey, AMQP.BasicProperties properties) {
        Object header = arguments.get("hash-header");
        if (header != null) {
            Object value = properties == null || properties.getHeaders() == null ? null
                    : properties.getHeaders().get(header.toString());
            return value == null ? "" : value.toString();
        }
        Object property = arguments.get("hash-property");
        if (property != null) {
            Object value = properties == null ? null : switch (property.toString()) {
                case "message_id" -> properties.getMessageId();
                case "correlation_id" -> properties.getCorrelationId();
                default -> properties.getTimestamp() == null ? null : properties.getTimestamp().getTime() / 1000;
            };
            return value == null ? "" : value.toString();
        }
        return routingKey;
    }

    private static long fnv1a(String value) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    /** Lamping and Veach's jump consistent hash: a bucket in [0, buckets), moving few keys when buckets grow. */
    static long jump(long key, long buckets) {
        long bucket = -1;
        long next = 0;
        while (next < buckets) {
            bucket = next;
            key = key * 2862933555777941757L + 1;
            next = (long) ((bucket + 1) * ((double) (1L << 31) / (double) ((key >>> 33) + 1)));
        }
        return bucket;
    }
}
