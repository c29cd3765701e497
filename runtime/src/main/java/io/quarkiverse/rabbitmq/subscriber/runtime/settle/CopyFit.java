package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.ContentHeaders;

/**
 * Makes a copy or dead letter fit one frame. The extension's own failure headers are what it may drop: the exception's
 * message first (up to 1,000 characters), then its type. The retry count is not: without it the copy could not be
 * counted, and the caller settles the message without a copy instead.
 */
final class CopyFit {

    /** The headers a copy may go without, in the order they are dropped. */
    static final List<String> DROPPABLE = List.of(FailureInfo.MESSAGE_HEADER, FailureInfo.TYPE_HEADER);

    /** The properties to publish and the headers dropped to get there (empty when they fitted as built). */
    record Fitted(AMQP.BasicProperties properties, List<String> dropped) {
    }

    private CopyFit() {
    }

    /** The copy as built, or trimmed until it fits; {@code null} when it does not fit even without them. */
    static Fitted fit(AMQP.BasicProperties properties, long bodySize, int frameMax) {
        if (ContentHeaders.fit(properties, bodySize, frameMax)) {
            return new Fitted(properties, List.of());
        }
        Map<String, Object> headers = properties.getHeaders() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(properties.getHeaders());
        List<String> dropped = new ArrayList<>();
        for (String header : DROPPABLE) {
            if (headers.remove(header) != null) {
                dropped.add(header);
                AMQP.BasicProperties trimmed = properties.builder().headers(headers).build();
                if (ContentHeaders.fit(trimmed, bodySize, frameMax)) {
                    return new Fitted(trimmed, List.copyOf(dropped));
                }
            }
        }
        return null;
    }
}
