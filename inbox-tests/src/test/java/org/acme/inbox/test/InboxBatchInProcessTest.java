package org.acme.inbox.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.rabbitmq.subscriber.Batch;
import io.quarkiverse.rabbitmq.subscriber.BatchOutcome;
import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireDatabase;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A batch handler with the inbox, on the real PostgreSQL and the in-process broker: one transaction per batch, whose
 * handler writes one row per item it acks with one JDBC batch. A message-id the inbox has (or twice in one batch) is
 * acked and left out of the list; an item the handler retries has its key taken out again, so its next delivery is
 * handled; a throw rolls the whole batch back, each attempt, until its items are dead-lettered.
 */
@Tag("database")
class InboxBatchInProcessTest {

    static final String QUEUE = "t.inbox.batch-orders";
    /** Where each batch that acks something sends one summary, through the outbox. */
    static final String SUMMARIES = "t.inbox.batch-summaries";

    @RegisterExtension
    @Order(1)
    static final WireDatabase database = WireDatabase.schema("t_inbox_batch_in_process");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(() -> {
                try {
                    database.update("CREATE TABLE batch_orders (id varchar(64) PRIMARY KEY)");
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
    void oneTransactionPerBatchDuplicatesLeftOutRetriedKeysTakenOut() throws Exception {
        // Five messages, m-1 twice: one call of four, the second m-1 acked as a duplicate.
        send("o-1", "m-1");
        send("o-2", "m-2");
        send("o-3", "m-3");
        send("o-1", "m-1");
        send("o-4", "m-4");
        await().atMost(Duration.ofSeconds(10)).until(() -> orders.calls().size() == 1 && outcome("ack") == 4);
        assertEquals(List.of(List.of("o-1", "o-2", "o-3", "o-4")), orders.calls());
        assertEquals(1, outcome("duplicate"));
        assertEquals(4, rows("batch_orders"));
        assertEquals(4, rows("rabbitmq_subscriber_inbox WHERE consumer = '" + QUEUE + "'"));

        // m-2 again (left out), o-5 acked, retry-6 retried at its first attempt: its key is taken out again, and its
        // copy is handled (and acked) in the next batch.
        send("o-2", "m-2");
        send("o-5", "m-5");
        send("retry-6", "m-6");
        broker.advance(Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> orders.calls().size() == 2);
        assertEquals(List.of("o-5", "retry-6"), orders.calls().get(1));
        assertEquals(2, outcome("duplicate"));
        broker.advance(Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> orders.calls().size() == 3 && outcome("ack") == 6);
        assertEquals(List.of("retry-6"), orders.calls().get(2));
        assertEquals(6, rows("batch_orders"));
        assertEquals(1, rows("rabbitmq_subscriber_inbox WHERE message_key = 'm-6'"));

        // A throw rolls back the batch's rows and keys, at each of its 3 attempts; then it is dead-lettered.
        send("boom-7", "m-7");
        send("o-8", "m-8");
        for (int attempt = 0; attempt < 3; attempt++) {
            broker.advance(Duration.ofSeconds(1));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> broker.messages(QUEUE + ".dead").size() == 2);
        assertEquals(6, rows("batch_orders"));
        assertEquals(0, rows("rabbitmq_subscriber_inbox WHERE message_key IN ('m-7', 'm-8')"));

        // One summary per batch that acked something, through the outbox (committed with the rows, published before
        // the acks, its rows deleted after); none from the batches that threw.
        await().atMost(Duration.ofSeconds(10)).until(() -> orders.summaries().size() == 3
                && rows("rabbitmq_subscriber_outbox") == 0);
        assertEquals(List.of("4 orders", "2 orders", "1 orders"), orders.summaries());
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

    @ApplicationScoped
    public static class Orders {

        @Inject
        AgroalDataSource dataSource;

        private final List<List<String>> calls = new CopyOnWriteArrayList<>();

        private final List<String> summaries = new CopyOnWriteArrayList<>();

        @Subscriber(SUMMARIES)
        void summary(String summary) {
            summaries.add(summary);
        }

        List<String> summaries() {
            return summaries;
        }

        /** Each call's orders (a method: the test holds the bean's client proxy, whose fields are its own). */
        List<List<String>> calls() {
            return calls;
        }

        /** Writes a row for each item it acks, in one JDBC batch; retries retry-* at its first attempt. */
        @Subscriber(value = QUEUE, maxAttempts = 3, deadLetter = QUEUE
                + ".dead", delay = Delay.DLX_TTL, inbox = true, batch = @Batch(size = 5, maxWait = "1s"))
        BatchOutcome place(List<String> orders, List<Delivery> deliveries, Outputs outputs) throws SQLException {
            calls.add(List.copyOf(orders));
            if (orders.stream().anyMatch(order -> order.startsWith("boom"))) {
                throw new IllegalStateException("the payment service is down");
            }
            BatchOutcome outcome = BatchOutcome.ack();
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement(
                            "INSERT INTO batch_orders (id) VALUES (?)")) {
                for (int i = 0; i < orders.size(); i++) {
                    if (orders.get(i).startsWith("retry") && deliveries.get(i).attempt() == 1) {
                        outcome = outcome.retry(i);
                    } else {
                        insert.setString(1, orders.get(i));
                        insert.addBatch();
                    }
                }
                insert.executeBatch();
            }
            outputs.send(SUMMARIES, orders.size() + " orders");
            return outcome;
        }
    }
}
