package org.acme.inbox.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.rabbitmq.subscriber.Broker;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireDatabase;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The inbox and the outbox record the broker (their {@code broker} column, added to tables made before it): an inbox
 * handler's row names its broker, and the outbox records the broker of each output: an inbox handler on the broker named
 * {@code billing} sends one output
 * to its own broker and one to the default broker; both leave with the commit, each to its broker. Rows a crash left
 * leave to the broker their row names (none: the default broker, as rows written before brokers had names), and a row
 * naming a broker that is no longer configured stays, its error naming the broker.
 */
@Tag("database")
class OutboxOnNamedBrokersTest {

    static final String REFUNDS = "t.outbox-nb.refunds";
    static final String BILLING_AUDIT = "t.outbox-nb.billing-audit";
    static final String AUDIT = "t.outbox-nb.audit";

    @RegisterExtension
    @Order(1)
    static final WireDatabase database = WireDatabase.schema("t_outbox_named_brokers");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(() -> {
                try {
                    database.update("CREATE TABLE nb_refunds (id varchar(64) PRIMARY KEY)",
                            // The tables as a release before named brokers made them: startup adds the broker column.
                            "CREATE TABLE rabbitmq_subscriber_inbox (consumer varchar(255) NOT NULL, "
                                    + "message_key varchar(255) NOT NULL, handled_at timestamp NOT NULL, "
                                    + "CONSTRAINT rabbitmq_subscriber_inbox_pk PRIMARY KEY (consumer, message_key))",
                            "CREATE TABLE rabbitmq_subscriber_outbox (id bigserial PRIMARY KEY, group_id varchar(36) "
                                    + "NOT NULL, seq integer NOT NULL, created_at timestamp NOT NULL, exchange "
                                    + "varchar(255) NOT NULL, routing_key varchar(255) NOT NULL, mandatory boolean NOT NULL, "
                                    + "message_id varchar(255), properties bytea NOT NULL, body bytea NOT NULL, "
                                    + "attempts integer NOT NULL DEFAULT 0, last_error varchar(1000))");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            })
            .withApplicationRoot(jar -> jar.addClasses(Refunds.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.brokers.billing.url", "amqp://localhost/billing");

    @Inject
    @Broker("billing")
    RabbitPublisher billing;

    @Inject
    InProcessBroker broker;

    @Inject
    Refunds refunds;

    @Test
    void eachOutputLeavesToTheBrokerItsRowNames() throws Exception {
        billing.sendConfirmed(OutgoingMessage.toQueue(REFUNDS).payload("r-1").messageId("m-1")).await()
                .atMost(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> refunds.billingAudit.contains("r-1")
                && refunds.audit.contains("r-1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> rows("rabbitmq_subscriber_outbox") == 0);
        // The inbox records the broker of what it handled: the billing broker's refund, the default broker's audit line.
        assertEquals(List.of(List.of(REFUNDS, "billing")), database.query("SELECT consumer, broker FROM "
                + "rabbitmq_subscriber_inbox"));

        insertRow("left-1", AUDIT, null, "relayed-default");
        insertRow("left-2", BILLING_AUDIT, "billing", "relayed-billing");
        insertRow("left-3", AUDIT, "payments", "nowhere");
        broker.advance(Duration.ofSeconds(2));
        await().atMost(Duration.ofSeconds(10)).until(() -> refunds.audit.contains("relayed-default")
                && refunds.billingAudit.contains("relayed-billing")
                && rows("rabbitmq_subscriber_outbox WHERE attempts > 0") == 1);
        String error = (String) database.query("SELECT last_error FROM rabbitmq_subscriber_outbox").get(0).get(0);
        assertEquals(true, error.contains("Broker 'payments' is not configured"), error);
        assertEquals(List.of(List.of("left-3", "payments")), database.query("SELECT group_id, broker FROM "
                + "rabbitmq_subscriber_outbox"));
        database.update("DELETE FROM rabbitmq_subscriber_outbox");
    }

    /** A row as the outbox writes it, long enough ago for the relay. */
    void insertRow(String group, String queue, String rowBroker, String body) throws SQLException {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId("m-" + body)
                .contentType("text/plain").build();
        try (Connection connection = java.sql.DriverManager.getConnection(database.jdbcUrl(), "postgres", "postgres");
                PreparedStatement insert = connection.prepareStatement("INSERT INTO rabbitmq_subscriber_outbox "
                        + "(group_id, seq, created_at, exchange, routing_key, mandatory, message_id, properties, body, "
                        + "broker) VALUES (?, 0, timestamp '2000-01-01 00:00:00', '', ?, true, ?, ?, ?, ?)")) {
            insert.setString(1, group);
            insert.setString(2, queue);
            insert.setString(3, "m-" + body);
            insert.setBytes(4, WireProperties.encode(properties));
            insert.setBytes(5, body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            insert.setString(6, rowBroker);
            insert.executeUpdate();
        }
    }

    long rows(String from) throws SQLException {
        return database.count("SELECT count(*) FROM " + from);
    }

    @Singleton
    public static class Refunds {

        @Inject
        AgroalDataSource dataSource;

        final Set<String> audit = ConcurrentHashMap.newKeySet();
        final Set<String> billingAudit = ConcurrentHashMap.newKeySet();

        @Subscriber(value = REFUNDS, broker = "billing", inbox = true)
        void refund(String refund, Outputs outputs) throws SQLException {
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement("INSERT INTO nb_refunds (id) VALUES (?)")) {
                insert.setString(1, refund);
                insert.executeUpdate();
            }
            outputs.send(BILLING_AUDIT, refund);
            outputs.send(OutgoingMessage.toQueue(AUDIT).payload(refund).broker(Broker.DEFAULT));
        }

        @Subscriber(value = BILLING_AUDIT, broker = "billing")
        void billingAudit(String line) {
            billingAudit.add(line);
        }

        @Subscriber(AUDIT)
        void audit(String line) {
            audit.add(line);
        }
    }
}
