package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.rabbitmq.client.LongString;

/**
 * Header tables as an application reads them: amqp-client gives text as {@link LongString}, which equals no
 * {@code String}; the test API and the dead-letter tools hand out plain Java values instead.
 */
public final class PlainHeaders {

    private PlainHeaders() {
    }

    /** A fresh map of the headers with plain values ({@code String}, nested tables and arrays too); empty for null. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> of(Map<String, Object> headers) {
        Map<String, Object> result = new LinkedHashMap<>();
        if (headers != null) {
            headers.forEach((key, value) -> result.put(key, value(value)));
        }
        return result;
    }

    /** One header value as a plain Java value. */
    @SuppressWarnings("unchecked")
    public static Object value(Object value) {
        if (value instanceof LongString text) {
            return text.toString();
        }
        if (value instanceof Map<?, ?> map) {
            return of((Map<String, Object>) map);
        }
        if (value instanceof List<?> list) {
            return list.stream().map(PlainHeaders::value).toList();
        }
        return value;
    }
}
