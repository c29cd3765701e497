package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.util.Map;
import java.util.UUID;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;

/**
 * The AMQP properties {@code RabbitPublisher} sends an {@link OutgoingMessage} with: the one place they are built, for
 * every send, confirmed or not, and every request.
 */
public final class OutgoingProperties {

    /** Delivery mode 2: a durable queue keeps the message across a broker restart. */
    static final int PERSISTENT = 2;
    static final int TRANSIENT = 1;

    private OutgoingProperties() {
    }

    /**
     * The message's properties, with the content type its codec wrote (or the one it set) and these headers (the message's own,
     * and what observers added to them: a trace
     * context). Fails with {@link IllegalArgumentException} naming the headers when one cannot be sent over AMQP,
     * before anything is sent or numbered.
     */
    public static AMQP.BasicProperties of(OutgoingMessage message, String contentType, Map<String, Object> headers) {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                .messageId(message.messageId() != null ? message.messageId() : UUID.randomUUID().toString())
                .correlationId(message.correlationId())
                .replyTo(message.replyTo())
                .contentType(contentType)
                .contentEncoding(message.contentEncoding())
                .deliveryMode(message.persistent() ? PERSISTENT : TRANSIENT)
                .expiration(message.expiration().map(expiration -> Long.toString(expiration.toMillis())).orElse(null))
                .priority(message.priority().isPresent() ? message.priority().getAsInt() : null)
                .headers(headers.isEmpty() ? null : headers)
                .build();
        if (!headers.isEmpty()) {
            // A header AMQP cannot carry fails here, before a confirm number is taken for a frame never sent.
            try {
                WireProperties.roundTrip(properties);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("A message header value cannot be sent over AMQP (" + e.getMessage()
                        + "): use strings, numbers, booleans, dates, byte arrays, lists and maps of them; headers were "
                        + headers.keySet(), e);
            }
        }
        return properties;
    }
}
