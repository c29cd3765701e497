package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.LongString;

/**
 * What a scenario observed, in words that compare equal across brokers: queue names without their unique prefix,
 * header values with their AMQP type (a {@code 5L} long is not a {@code 5} int), timestamps as {@code <time>}, the
 * direct reply-to addresses a server generates as {@code amq.rabbitmq.reply-to.<token>}.
 */
final class Transcript {

    /** A server's direct reply-to address: RabbitMQ writes base64 of its channel's process, a dot, a random key. */
    private static final java.util.regex.Pattern REPLY_ADDRESS = java.util.regex.Pattern
            .compile("amq\\.rabbitmq\\.reply-to\\.[A-Za-z0-9+/=]+\\.[A-Za-z0-9+/=]+");

    private final String prefix;
    final List<String> lines = new ArrayList<>();

    Transcript(String prefix) {
        this.prefix = prefix;
    }

    void add(String fact) {
        lines.add(REPLY_ADDRESS.matcher(fact.replace(prefix, "<p>")).replaceAll("amq.rabbitmq.reply-to.<token>"));
    }

    void message(String label, Fetched fetched) {
        if (fetched == null) {
            add(label + ": none");
            return;
        }
        add(label + ": " + describe(fetched.envelope().getDeliveryTag(), fetched.envelope().isRedeliver(),
                fetched.envelope().getExchange(), fetched.envelope().getRoutingKey(), fetched.properties(),
                fetched.body()) + " left=" + fetched.messageCount());
    }

    static String describe(long tag, boolean redelivered, String exchange, String routingKey,
            AMQP.BasicProperties properties, byte[] body) {
        return "tag=" + tag + " redelivered=" + redelivered + " exchange=" + exchange + " routingKey=" + routingKey
                + " body=" + new String(body, StandardCharsets.UTF_8) + " expiration=" + properties.getExpiration()
                + " messageId=" + properties.getMessageId() + " headers=" + value(properties.getHeaders())
                + (properties.getReplyTo() == null ? "" : " replyTo=" + properties.getReplyTo())
                + (properties.getCorrelationId() == null ? "" : " correlationId=" + properties.getCorrelationId());
    }

    static String value(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof LongString || value instanceof String) {
            return "'" + value + "'";
        }
        if (value instanceof Long) {
            return value + "L";
        }
        if (value instanceof Date) {
            return "<time>";
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, String> sorted = new TreeMap<>();
            map.forEach((k, v) -> sorted.put(String.valueOf(k), value(v)));
            return sorted.toString();
        }
        if (value instanceof List<?> list) {
            List<String> items = new ArrayList<>();
            list.forEach(item -> items.add(value(item)));
            return items.toString();
        }
        if (value instanceof byte[] bytes) {
            return "bytes:" + new String(bytes, StandardCharsets.UTF_8);
        }
        return value + ":" + value.getClass().getSimpleName();
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
