package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.Map;

import com.rabbitmq.client.LongString;

import io.quarkiverse.rabbitmq.subscriber.Delivery;

/**
 * Where a message was first published, and the queue it was first consumed from. A copy or dead letter goes to its
 * queue by name through the default exchange (or through a waiting queue, or the delayed-message exchange), so the
 * exchange and routing key it arrives with are not the original's, and a dead letter sits in another queue; the headers
 * {@link Delivery#ORIGINAL_EXCHANGE_HEADER}, {@link Delivery#ORIGINAL_ROUTING_KEY_HEADER} and
 * {@link Delivery#ORIGINAL_QUEUE_HEADER} carry those on, written once by the first copy and kept by every later one.
 */
public final class OriginalRoute {

    private OriginalRoute() {
    }

    /** The exchange the message was first published to: the header where a copy carries it, else the envelope's. */
    public static String exchange(Map<String, Object> headers, String arrivedThrough) {
        return text(headers, Delivery.ORIGINAL_EXCHANGE_HEADER, arrivedThrough);
    }

    /** The routing key the message was first published with, as {@link #exchange}. */
    public static String routingKey(Map<String, Object> headers, String arrivedWith) {
        return text(headers, Delivery.ORIGINAL_ROUTING_KEY_HEADER, arrivedWith);
    }

    /** The queue the message was first consumed from, from the header a copy carries it in; null without one. */
    public static String queue(Map<String, Object> headers) {
        return text(headers, Delivery.ORIGINAL_QUEUE_HEADER, null);
    }

    /**
     * Writes the original's route into a copy's headers, unless they have it (a copy of a copy) or the original came
     * through the default exchange (the copy's own route says the same); and the queue it was consumed from, unless
     * they have that (a copy of a copy keeps the first queue: a retry through a waiting queue arrives from it).
     */
    static void carry(Map<String, Object> headers, String exchange, String routingKey, String queue) {
        if (queue != null && !headers.containsKey(Delivery.ORIGINAL_QUEUE_HEADER)) {
            headers.put(Delivery.ORIGINAL_QUEUE_HEADER, queue);
        }
        if (headers.containsKey(Delivery.ORIGINAL_EXCHANGE_HEADER) || exchange == null || exchange.isEmpty()) {
            return;
        }
        headers.put(Delivery.ORIGINAL_EXCHANGE_HEADER, exchange);
        headers.put(Delivery.ORIGINAL_ROUTING_KEY_HEADER, routingKey == null ? "" : routingKey);
    }

    private static String text(Map<String, Object> headers, String name, String otherwise) {
        Object value = headers == null ? null : headers.get(name);
        return value instanceof String || value instanceof LongString ? value.toString() : otherwise;
    }
}
