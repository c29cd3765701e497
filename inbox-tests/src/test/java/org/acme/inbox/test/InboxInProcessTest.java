package org.acme.inbox.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireDatabase;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The inbox on the real PostgreSQL, with the in-process broker: the handler writes a row of its own per order in the
 * inbox's transaction. An ack commits the row and the inbox's; a message-id seen before is acked without calling the
 * handler (counted as duplicate); a retry, each failed attempt and a dead letter roll back, leaving neither row.
 */
@Tag("database")
class InboxInProcessTest {

    static final String QUEUE = "t.inbox.orders";

    @RegisterExtension
    @Order(1)
    static final WireDatabase database = WireDatabase.schema("t_inbox_in_process");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(() -> {
                try {
                    database.update("CREATE TABLE orders (id varchar(64) PRIMARY KEY)");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            })
            .withApplicationRoot(jar -> jar.addClasses(Orders.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    RabbitPublisher publisher;

    @Inject
    InProcessBroker broker;

    @Inject
    Orders orders;

    @Inject
    SubscriberStatus status;

    @Test
    void effectsOnceWhateverComesAgain() throws Exception {
        send("ack-1", "m-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> orders.calls("ack-1") == 1 && settled() == 1);
        assertEquals(1, rows("orders WHERE id = 'ack-1'"));
        assertEquals(List.of(List.of(QUEUE, "m-1")), database.query("SELECT consumer, message_key FROM "
                + "rabbitmq_subscriber_inbox"));

        // The same message again (a publisher's retry, a redelivery after a cut): not handled, acked, counted.
        send("ack-1", "m-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> outcome("duplicate") == 1);
        assertEquals(1, orders.calls("ack-1"), "the handler is not called for a duplicate");
        assertEquals(1, rows("orders WHERE id = 'ack-1'"));

        // A retry rolls back what the attempt wrote; the next attempt acks: one row, one inbox row.
        send("retry-2", "m-2");
        await().atMost(Duration.ofSeconds(10)).until(() -> orders.calls("retry-2") == 1);
        broker.advance(Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> orders.calls("retry-2") == 2 && outcome("ack") == 2);
        assertEquals(1, rows("orders WHERE id = 'retry-2'"));
        assertEquals(1, rows("rabbitmq_subscriber_inbox WHERE message_key = 'm-2'"));

        // A failure (the handler throws after writing) rolls back too, at each of its 3 attempts; then it is
        // dead-lettered.
        send("boom-3", "m-3");
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.messages(QUEUE + ".dead").size() == 1);
        assertEquals(3, orders.calls("boom-3"));
        assertEquals(0, rows("orders WHERE id = 'boom-3'"));
        assertEquals(0, rows("rabbitmq_subscriber_inbox WHERE message_key = 'm-3'"));

        // A dead letter leaves no row: the message is in the dead-letter queue, its effects nowhere.
        send("dead-4", "m-4");
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.messages(QUEUE + ".dead").size() == 2);
        assertEquals(0, rows("orders WHERE id = 'dead-4'"));
        assertEquals(0, rows("rabbitmq_subscriber_inbox WHERE message_key = 'm-4'"));
    }

    void send(String order, String messageId) {
        publisher.sendConfirmed(OutgoingMessage.toQueue(QUEUE).payload(order).messageId(messageId)).await()
                .indefinitely();
    }

    long rows(String from) throws SQLException {
        return database.count("SELECT count(*) FROM " + from);
    }

    long outcome(String label) {
        return status.outcomes().getOrDefault(QUEUE, Map.of()).getOrDefault(label, 0L);
    }

    long settled() {
        return status.outcomes().getOrDefault(QUEUE, Map.of()).values().stream().mapToLong(Long::longValue).sum();
    }

    @ApplicationScoped
    public static class Orders {

        @Inject
        AgroalDataSource dataSource;

        private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        int calls(String order) {
            AtomicInteger count = calls.get(order);
            return count == null ? 0 : count.get();
        }

        @Subscriber(value = QUEUE, maxAttempts = 3, deadLetter = QUEUE + ".dead", delay = Delay.DLX_TTL, inbox = true)
        Outcome place(String order) throws SQLException {
            int call = calls.computeIfAbsent(order, ignored -> new AtomicInteger()).incrementAndGet();
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement("INSERT INTO orders (id) VALUES (?)")) {
                insert.setString(1, order);
                insert.executeUpdate();
            }
            if (order.startsWith("retry") && call == 1) {
                return Outcome.retryAfter(Duration.ofMillis(500));
            }
            if (order.startsWith("boom")) {
                throw new IllegalStateException("the payment service is down");
            }
            if (order.startsWith("dead")) {
                return Outcome.deadLetter("no such customer");
            }
            return Outcome.ack();
        }
    }
}
