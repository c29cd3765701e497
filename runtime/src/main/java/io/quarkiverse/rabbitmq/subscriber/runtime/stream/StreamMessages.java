package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.stream.Message;
import com.rabbitmq.stream.Properties;

/**
 * A stream message (AMQP 1.0) as the runtime reads a queue's messages: its properties as AMQP 0.9.1 properties, its
 * application properties as headers. RabbitMQ maps a message published over AMQP 0.9.1 into a stream the other way,
 * so what a publisher set reads back the same (content type, message id, correlation id, reply-to, headers).
 */
final class StreamMessages {

    private StreamMessages() {
    }

    /** A message with neither properties nor application properties: shared, as nothing changes a delivery's. */
    private static final AMQP.BasicProperties NONE = new AMQP.BasicProperties.Builder().build();

    static AMQP.BasicProperties properties(Message message) {
        Properties properties = message.getProperties();
        Map<String, Object> application = message.getApplicationProperties();
        if (properties == null && (application == null || application.isEmpty())) {
            return NONE;
        }
        AMQP.BasicProperties.Builder builder = new AMQP.BasicProperties.Builder();
        if (properties != null) {
            builder.contentType(properties.getContentType()).contentEncoding(properties.getContentEncoding())
                    .replyTo(properties.getReplyTo());
            Object messageId = properties.getMessageId();
            if (messageId != null) {
                builder.messageId(String.valueOf(messageId));
            }
            Object correlationId = properties.getCorrelationId();
            if (correlationId != null) {
                builder.correlationId(String.valueOf(correlationId));
            }
            if (properties.getCreationTime() > 0) {
                builder.timestamp(new Date(properties.getCreationTime()));
            }
        }
        if (application != null && !application.isEmpty()) {
            Map<String, Object> headers = new LinkedHashMap<>();
            application.forEach((name, value) -> headers.put(name, header(value)));
            builder.headers(headers);
        }
        return builder.build();
    }

    /** A header value in the types AMQP 0.9.1 headers hold: AMQP 1.0's others (symbols, UUIDs, ...) as text. */
    private static Object header(Object value) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean
                || value instanceof byte[] || value instanceof Date) {
            return value;
        }
        return value.toString();
    }
}
