package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.rabbitmq.client.AMQP;

/**
 * The properties of a copy or dead letter the runtime publishes: every header and property of the original, but the
 * headers that describe the original's own life in the broker (its deaths, a quorum queue's delivery count), with the
 * retry count set, the original's exchange, routing key and queue ({@link OriginalRoute}) and, after a failure, the
 * failure's type and message.
 */
public final class CopyProperties {

    /** Headers RabbitMQ writes about a message's deaths and deliveries: they belong to the original only. */
    public static final List<String> BROKER_HEADERS = List.of("x-death", "x-first-death-reason", "x-first-death-queue",
            "x-first-death-exchange", "x-last-death-reason", "x-last-death-queue", "x-last-death-exchange",
            "x-delivery-count");

    private CopyProperties() {
    }

    /** The copy's header table is a fresh, mutable map: observers may add their context to it. */
    public static AMQP.BasicProperties of(Unsettled original, String retryCountHeader, int retryCount,
            FailureInfo failure) {
        AMQP.BasicProperties properties = original.properties();
        Map<String, Object> headers = properties.getHeaders() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(properties.getHeaders());
        BROKER_HEADERS.forEach(headers::remove);
        OriginalRoute.carry(headers, original.exchange(), original.routingKey(), original.queue());
        headers.put(retryCountHeader, retryCount);
        if (failure != null) {
            headers.put(FailureInfo.TYPE_HEADER, failure.type());
            headers.put(FailureInfo.MESSAGE_HEADER, failure.message());
        }
        return properties.builder().headers(headers).build();
    }
}
