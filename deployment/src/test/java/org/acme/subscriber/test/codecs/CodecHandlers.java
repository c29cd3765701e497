package org.acme.subscriber.test.codecs;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Singleton;

import org.acme.subscriber.test.codecs.proto.Order;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.MessageProperties;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

/**
 * Handlers of three payload kinds: a Protobuf message, a row with its own codec, a JSON note. A singleton: the test
 * reads its fields, which a client proxy would not pass on.
 */
@Singleton
public class CodecHandlers {

    public static final String ORDERS = "t.codec.orders";
    public static final String ORDERS_DEAD = "t.codec.orders.dead";
    public static final String ROWS = "t.codec.rows";
    public static final String ROWS_DEAD = "t.codec.rows.dead";
    public static final String NOTES = "t.codec.notes";
    public static final String NOTES_DEAD = "t.codec.notes.dead";
    public static final String[] QUEUES = { ORDERS, ORDERS_DEAD, ROWS, ROWS_DEAD, NOTES, NOTES_DEAD };

    final Map<String, Order> orders = new ConcurrentHashMap<>();
    final Map<String, Row> rows = new ConcurrentHashMap<>();
    final Map<String, Note> notes = new ConcurrentHashMap<>();
    /** What each message's properties and headers said, by the payload's id or name. */
    final Map<String, MessageProperties> properties = new ConcurrentHashMap<>();
    final Map<String, Map<String, Object>> headers = new ConcurrentHashMap<>();

    @Subscriber(value = ORDERS, maxAttempts = 3, deadLetter = ORDERS_DEAD)
    void order(Order order, Delivery delivery) {
        orders.put(order.getId(), order);
        seen(order.getId(), delivery);
    }

    @Subscriber(value = ROWS, maxAttempts = 3, deadLetter = ROWS_DEAD)
    void row(Row row, Delivery delivery) {
        rows.put(row.name(), row);
        seen(row.name(), delivery);
    }

    @Subscriber(value = NOTES, maxAttempts = 3, deadLetter = NOTES_DEAD)
    void note(Note note, Delivery delivery) {
        notes.put(note.id(), note);
        seen(note.id(), delivery);
    }

    private void seen(String key, Delivery delivery) {
        properties.put(key, delivery.properties());
        headers.put(key, delivery.headers());
    }
}
