package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import com.rabbitmq.client.AMQP;

/** amqp-client's properties hold an unmodifiable header table: observers write into a copy, and the properties are rebuilt. */
public final class HeaderTables {

    private HeaderTables() {
    }

    /** The properties with {@code change} applied to a mutable copy of their headers. */
    public static AMQP.BasicProperties changed(AMQP.BasicProperties properties, Consumer<Map<String, Object>> change) {
        Map<String, Object> headers = properties.getHeaders() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(properties.getHeaders());
        change.accept(headers);
        return properties.builder().headers(headers).build();
    }
}
