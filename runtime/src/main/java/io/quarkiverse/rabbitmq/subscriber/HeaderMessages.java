package io.quarkiverse.rabbitmq.subscriber;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jboss.logging.Logger;

/**
 * The message {@link RabbitPublisher}'s payload-and-headers forms send. A {@code message-id} header becomes the message
 * id property, as it always did for these forms (applications rely on it), but no longer without a word: the first
 * one is said at WARN, naming {@link OutgoingMessage#messageId(String)}, which says what it does.
 */
final class HeaderMessages {

    private static final Logger LOG = Logger.getLogger(RabbitPublisher.class);
    private static final String MESSAGE_ID = "message-id";
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private HeaderMessages() {
    }

    static OutgoingMessage of(String exchange, String routingKey, Object payload, Map<String, Object> headers) {
        OutgoingMessage message = OutgoingMessage.to(exchange, routingKey).payload(payload);
        if (!headers.containsKey(MESSAGE_ID)) {
            return message.headers(headers);
        }
        if (WARNED.compareAndSet(false, true)) {
            LOG.warn("A 'message-id' header given to RabbitPublisher is sent as the message's id property, not as a "
                    + "header (said once): publish an OutgoingMessage with messageId(...) to say so");
        }
        Map<String, Object> rest = new LinkedHashMap<>(headers);
        Object messageId = rest.remove(MESSAGE_ID);
        return message.headers(rest).messageId(String.valueOf(messageId));
    }
}
