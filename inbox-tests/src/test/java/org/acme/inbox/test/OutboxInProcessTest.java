package org.acme.inbox.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

import com.rabbitmq.client.AMQP;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireDatabase;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The outbox on the real PostgreSQL, with the in-process broker and its virtual clock. An inbox handler's outputs
 * leave only with its commit: once, with a message-id, and its outbox rows are deleted once it is confirmed; a retried or
 * dead-lettered attempt sends nothing. The relay publishes what a crash left in the table (a group written, never
 * published or never deleted) in order, with the message-ids of its rows, so a downstream inbox subscriber that had
 * the message already counts it as a duplicate; a group that cannot leave is noted on its rows and blocks no other.
 */
@Tag("database")
class OutboxInProcessTest {

    static final String QUEUE = "t.outbox.refunds";
    static final String AUDIT = "t.outbox.audit";

    @RegisterExtension
    @Order(1)
    static final WireDatabase database = WireDatabase.schema("t_outbox_in_process");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(() -> {
                try {
                    database.update("CREATE TABLE refunds (id varchar(64) PRIMARY KEY)",
                            "CREATE TABLE audited (id varchar(64) NOT NULL, message_id varchar(255) NOT NULL)");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            })
            .withApplicationRoot(jar -> jar.addClasses(Refunds.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    RabbitPublisher publisher;

    @Inject
    InProcessBroker broker;

    @Inject
    Refunds refunds;

    @Inject
    SubscriberStatus status;

    @Test
    void outputsLeaveWithTheCommitAndTheRelaySendsWhatACrashLeft() throws Exception {
        // An ack: the refund's row, one audit message (handled downstream once), no outbox row left.
        send("r-1", "m-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> rows("audited WHERE id = 'r-1'") == 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> rows("rabbitmq_subscriber_outbox") == 0);
        assertEquals(1, rows("refunds WHERE id = 'r-1'"));

        // A retry: the first attempt's output never leaves; the second attempt's does, once.
        send("retry-2", "m-2");
        await().atMost(Duration.ofSeconds(10)).until(() -> refunds.calls("retry-2") == 1);
        broker.awaitIdle();
        assertEquals(0, rows("audited WHERE id = 'retry-2'"));
        assertEquals(0, rows("rabbitmq_subscriber_outbox"));
        broker.advance(Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> rows("audited WHERE id = 'retry-2'") == 1);
        assertEquals(1, rows("refunds WHERE id = 'retry-2'"));

        // A dead letter: neither the row nor the output.
        send("dead-3", "m-3");
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.messages(QUEUE + ".dead").size() == 1);
        broker.awaitIdle();
        assertEquals(0, rows("audited WHERE id = 'dead-3'"));
        assertEquals(0, rows("refunds WHERE id = 'dead-3'"));
        assertEquals(0, rows("rabbitmq_subscriber_outbox"));

        // What a crash leaves: a group committed and published but not deleted (its first message went out already,
        // with this message-id), and one for a queue that does not exist.
        String sentBefore = (String) database.query("SELECT message_id FROM audited WHERE id = 'r-1'").get(0).get(0);
        insertRow("left-1", 0, AUDIT, "r-1", sentBefore);
        insertRow("left-1", 1, AUDIT, "relayed-1", "m-relayed-1");
        insertRow("left-2", 0, "t.outbox.nowhere", "lost-1", "m-lost-1");
        insertRow("left-3", 0, AUDIT, "relayed-3", "m-relayed-3");
        broker.advance(Duration.ofSeconds(2));
        await().atMost(Duration.ofSeconds(10)).until(() -> rows("audited WHERE id = 'relayed-3'") == 1
                && rows("audited WHERE id = 'relayed-1'") == 1 && outcome(AUDIT, "duplicate") == 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> rows("rabbitmq_subscriber_outbox WHERE attempts > 0") == 1);
        assertEquals(1, rows("audited WHERE id = 'r-1'"), "the downstream inbox took the re-sent message once");
        assertEquals(List.of(List.of("left-2", 1)), database.query("SELECT group_id, attempts FROM "
                + "rabbitmq_subscriber_outbox"), "only the group that cannot leave stays");
        String error = (String) database.query("SELECT last_error FROM rabbitmq_subscriber_outbox").get(0).get(0);
        assertTrue(error.contains("t.outbox.nowhere"), error);
        database.update("DELETE FROM rabbitmq_subscriber_outbox");
    }

    void send(String refund, String messageId) {
        publisher.sendConfirmed(OutgoingMessage.toQueue(QUEUE).payload(refund).messageId(messageId)).await()
                .indefinitely();
    }

    /** A row as the outbox writes it, long enough ago for the relay. */
    void insertRow(String group, int seq, String queue, String body, String messageId) throws SQLException {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId(messageId)
                .contentType("text/plain").build();
        try (Connection connection = java.sql.DriverManager.getConnection(database.jdbcUrl(), "postgres", "postgres");
                PreparedStatement insert = connection.prepareStatement("INSERT INTO rabbitmq_subscriber_outbox "
                        + "(group_id, seq, created_at, exchange, routing_key, mandatory, message_id, properties, body) "
                        + "VALUES (?, ?, timestamp '2000-01-01 00:00:00', '', ?, true, ?, ?, ?)")) {
            insert.setString(1, group);
            insert.setInt(2, seq);
            insert.setString(3, queue);
            insert.setString(4, messageId);
            insert.setBytes(5, WireProperties.encode(properties));
            insert.setBytes(6, body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            insert.executeUpdate();
        }
    }

    long rows(String from) throws SQLException {
        return database.count("SELECT count(*) FROM " + from);
    }

    long outcome(String queue, String label) {
        return status.outcomes().getOrDefault(queue, Map.of()).getOrDefault(label, 0L);
    }

    @ApplicationScoped
    public static class Refunds {

        @Inject
        AgroalDataSource dataSource;

        private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

        int calls(String refund) {
            AtomicInteger count = calls.get(refund);
            return count == null ? 0 : count.get();
        }

        @Subscriber(value = QUEUE, maxAttempts = 3, deadLetter = QUEUE + ".dead", delay = Delay.DLX_TTL, inbox = true)
        Outcome refund(String refund, Outputs outputs) throws SQLException {
            int call = calls.computeIfAbsent(refund, ignored -> new AtomicInteger()).incrementAndGet();
            insert("INSERT INTO refunds (id) VALUES (?)", refund);
            outputs.send(AUDIT, refund);
            if (refund.startsWith("retry") && call == 1) {
                return Outcome.retryAfter(Duration.ofMillis(500));
            }
            if (refund.startsWith("dead")) {
                return Outcome.deadLetter("no such payment");
            }
            return Outcome.ack();
        }

        /** Downstream: an inbox subscriber of its own, which must see each message once. */
        @Subscriber(value = AUDIT, inbox = true)
        void audit(String refund, Delivery delivery) throws SQLException {
            insert("INSERT INTO audited (id, message_id) VALUES (?, ?)", refund, delivery.messageId());
        }

        private void insert(String sql, String... values) throws SQLException {
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement(sql)) {
                for (int i = 0; i < values.length; i++) {
                    insert.setString(i + 1, values[i]);
                }
                insert.executeUpdate();
            }
        }
    }
}
