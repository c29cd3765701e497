package org.acme.inbox.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireDatabase;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * {@code RabbitPublisher} inside the application's own JTA transaction, with {@code outbox.enabled}: a REST-style
 * method that saves an order and announces it. Its messages leave only once the transaction committed, in the order
 * they were sent, with the message-ids their rows hold, and the outbox is empty after; a rollback takes them with it.
 * A send in a transaction marked for rollback, or subscribed outside the transaction it was made in, fails saying so;
 * outside any transaction a send publishes at once, as without the outbox. A message that cannot leave after the
 * commit stays in the outbox for the relay, the commit kept.
 */
@Tag("database")
class OutboxInTransactionTest {

    static final String EVENTS = "t.outbox.tx.events";
    static final String NOWHERE = "t.outbox.tx.nowhere";

    @RegisterExtension
    @Order(1)
    static final WireDatabase database = WireDatabase.schema("t_outbox_in_transaction");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class, Events.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.outbox.enabled", "true");

    @Inject
    Orders orders;

    @Inject
    Events events;

    @Inject
    RabbitPublisher publisher;

    @Inject
    InProcessBroker broker;

    @Test
    void messagesLeaveAfterTheCommitInOrder() throws Exception {
        database.update("CREATE TABLE IF NOT EXISTS orders (id varchar(64) PRIMARY KEY)");
        orders.placeAndAnnounce("o-1", 3, false);
        await().atMost(Duration.ofSeconds(10)).until(() -> events.received("o-1").size() == 3);
        assertEquals(List.of("o-1#0", "o-1#1", "o-1#2"), events.received("o-1"));
        assertEquals(List.of("o-1-0", "o-1-1", "o-1-2"), events.messageIds("o-1"));
        assertEquals(1, database.count("SELECT count(*) FROM orders WHERE id = 'o-1'"));
        await().atMost(Duration.ofSeconds(10)).until(() -> outboxRows() == 0);
    }

    @Test
    void aRollbackTakesTheMessagesWithIt() throws Exception {
        database.update("CREATE TABLE IF NOT EXISTS orders (id varchar(64) PRIMARY KEY)");
        assertThrows(IllegalArgumentException.class, () -> orders.placeAndAnnounce("o-2", 2, true));
        broker.awaitIdle();
        assertEquals(0, database.count("SELECT count(*) FROM orders WHERE id = 'o-2'"));
        assertEquals(0, outboxRows());
        // A later message of the same sender does arrive: nothing of o-2 is waiting anywhere.
        orders.placeAndAnnounce("o-2b", 1, false);
        await().atMost(Duration.ofSeconds(10)).until(() -> events.received("o-2b").size() == 1);
        assertEquals(List.of(), events.received("o-2"));
    }

    @Test
    void aTransactionMarkedForRollbackRefusesToSend() {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> orders.sendMarkedForRollback());
        assertTrue(refused.getMessage().contains("marked for rollback"), refused.getMessage());
    }

    @Test
    void subscribedOutsideItsTransactionFails() {
        Uni<Void> later = orders.sendWithoutSubscribing("o-3");
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> later.await().indefinitely());
        assertTrue(refused.getMessage().contains("inside the transaction"), refused.getMessage());
    }

    @Test
    void outsideATransactionASendPublishesAtOnce() throws Exception {
        publisher.sendConfirmed(OutgoingMessage.toQueue(EVENTS).payload("o-4#0").messageId("o-4-0")).await()
                .indefinitely();
        await().atMost(Duration.ofSeconds(10)).until(() -> events.received("o-4").size() == 1);
        assertEquals(0, outboxRows());
    }

    @Test
    void aMessageThatCannotLeaveWaitsForTheRelay() throws Exception {
        database.update("CREATE TABLE IF NOT EXISTS orders (id varchar(64) PRIMARY KEY)");
        orders.placeAndAnnounceTo("o-5", NOWHERE);
        assertEquals(1, database.count("SELECT count(*) FROM orders WHERE id = 'o-5'"));
        // Returned by the broker after the commit: the row stays; past min-age the relay tries it and notes why.
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).until(() -> {
            broker.advance(Duration.ofSeconds(5));
            return database.count("SELECT count(*) FROM rabbitmq_subscriber_outbox WHERE routing_key = '" + NOWHERE
                    + "' AND attempts > 0") == 1;
        });
        database.update("DELETE FROM rabbitmq_subscriber_outbox WHERE routing_key = '" + NOWHERE + "'");
    }

    long outboxRows() throws SQLException {
        return database.count("SELECT count(*) FROM rabbitmq_subscriber_outbox");
    }

    @ApplicationScoped
    public static class Orders {

        @Inject
        AgroalDataSource dataSource;

        @Inject
        RabbitPublisher publisher;

        @Inject
        TransactionSynchronizationRegistry registry;

        @Transactional
        public void placeAndAnnounce(String order, int events, boolean fail) throws SQLException {
            insert(order);
            for (int i = 0; i < events; i++) {
                publisher.sendConfirmed(OutgoingMessage.toQueue(EVENTS).payload(order + "#" + i)
                        .messageId(order + "-" + i)).await().indefinitely();
            }
            if (fail) {
                throw new IllegalArgumentException("refused " + order);
            }
        }

        @Transactional
        public void placeAndAnnounceTo(String order, String queue) throws SQLException {
            insert(order);
            publisher.sendConfirmed(OutgoingMessage.toQueue(queue).payload(order)).await().indefinitely();
        }

        @Transactional
        public void sendMarkedForRollback() {
            registry.setRollbackOnly();
            publisher.send(OutgoingMessage.toQueue(EVENTS).payload("never")).await().indefinitely();
        }

        /**
         * The Uni escapes its transaction ({@code @Transactional} on a method returning a {@code Uni} would keep the
         * transaction open until it completes, and so write it in the transaction).
         */
        public Uni<Void> sendWithoutSubscribing(String order) {
            return QuarkusTransaction.requiringNew()
                    .call(() -> publisher.sendConfirmed(OutgoingMessage.toQueue(EVENTS).payload(order + "#0")));
        }

        private void insert(String order) throws SQLException {
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement("INSERT INTO orders (id) VALUES (?)")) {
                insert.setString(1, order);
                insert.executeUpdate();
            }
        }
    }

    @ApplicationScoped
    public static class Events {
        private final List<String> bodies = new CopyOnWriteArrayList<>();
        private final List<String> ids = new CopyOnWriteArrayList<>();

        List<String> received(String order) {
            return bodies.stream().filter(body -> body.startsWith(order + "#")).toList();
        }

        List<String> messageIds(String order) {
            return ids.stream().filter(id -> id.startsWith(order + "-")).toList();
        }

        // One at a time: a blocking handler runs on several worker threads by default, and the test reads the order
        // in which the messages left the outbox from the order the handler saw them.
        @Subscriber(value = EVENTS, concurrency = 1)
        void on(String body, Delivery delivery) {
            ids.add(delivery.messageId());
            bodies.add(body);
        }
    }
}
