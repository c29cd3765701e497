package org.acme.subscriber.test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.ContentHeaders;

/** Messages RabbitMQ accepts and a client may not handle, for the tests that feed them to subscribers. */
public final class PoisonMessages {

    private PoisonMessages() {
    }

    /**
     * A header table nested {@code depth} levels deep: legal AMQP, which RabbitMQ accepts; amqp-client reads 32 levels
     * and fails the whole connection beyond.
     */
    public static Map<String, Object> nested(int depth) {
        Map<String, Object> top = new HashMap<>();
        Map<String, Object> current = top;
        for (int i = 0; i < depth; i++) {
            Map<String, Object> next = new HashMap<>();
            current.put("d", next);
            current = next;
        }
        return top;
    }

    /** Headers (a filler and an id) whose content header frame is {@code room} bytes under frame_max. */
    public static AMQP.BasicProperties leavingRoom(String messageId, int room) {
        AMQP.BasicProperties empty = properties(messageId, "");
        int fill = ContentHeaders.RABBITMQ_FRAME_MAX - room - ContentHeaders.frameSize(empty, 5);
        AMQP.BasicProperties sized = properties(messageId, "f".repeat(fill));
        if (ContentHeaders.frameSize(sized, 5) != ContentHeaders.RABBITMQ_FRAME_MAX - room) {
            throw new IllegalStateException("the filler does not leave " + room + " bytes");
        }
        return sized;
    }

    private static AMQP.BasicProperties properties(String messageId, String filler) {
        Map<String, Object> headers = new LinkedHashMap<>();
        headers.put("filler", filler);
        return new AMQP.BasicProperties.Builder().messageId(messageId).headers(headers).build();
    }
}
