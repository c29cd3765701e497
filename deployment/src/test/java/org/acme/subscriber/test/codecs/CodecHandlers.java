package org.acme.subscriber.test.codecs;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Singleton;

import org.acme.subscriber.test.codecs.proto.Order;

import io.quarkiverse.rabbitmq.subscriber.Batch;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.MessageProperties;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

/**
 * Handlers of three payload kinds: a Protobuf message, a row with its own codec (also in batches and replies), a JSON
 * note. A singleton: the test
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
    public static final String ROW_BATCHES = "t.codec.row-batches";
    public static final String ROW_REQUESTS = "t.codec.row-requests";
    public static final String[] QUEUES = { ORDERS, ORDERS_DEAD, ROWS, ROWS_DEAD, NOTES, NOTES_DEAD, ROW_BATCHES,
            ROW_REQUESTS };

    final Map<String, Order> orders = new ConcurrentHashMap<>();
    final Map<String, Row> rows = new ConcurrentHashMap<>();
    final Map<String, Note> notes = new ConcurrentHashMap<>();
    /** What each message's properties and headers said, by the payload's id or name. */
    final Map<String, MessageProperties> properties = new ConcurrentHashMap<>();
    final Map<String, Map<String, Object>> headers = new ConcurrentHashMap<>();
    /** The rows of each batch, in the order the batches came. */
    final List<List<Row>> batches = new CopyOnWriteArrayList<>();

    @Subscriber(value = ORDERS, maxAttempts = 3, deadLetter = ORDERS_DEAD)
    void order(Order order, Delivery delivery) {
        if (order.getId().startsWith("o-poison")) {
            throw new IllegalStateException("no such customer");
        }
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

    /** Each item of a batch through the codecs, as one delivery's payload is. */
    @Subscriber(value = ROW_BATCHES, batch = @Batch(size = 4, maxWait = "1s"))
    void rows(List<Row> rows) {
        batches.add(rows);
    }

    /** Answers with a row: the reply is written by the application's codec, and read by it for the requester. */
    @Subscriber(ROW_REQUESTS)
    void lookUp(String name, Outputs outputs) {
        outputs.reply(new Row(name.length(), name));
    }

    private void seen(String key, Delivery delivery) {
        properties.put(key, delivery.properties());
        headers.put(key, delivery.headers());
    }
}
