package org.acme.inbox.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireDatabase;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The inbox at scale on a real RabbitMQ and a real PostgreSQL: 20,000 messages through an inbox subscriber that writes
 * a row of its own per message, while the application's connection is cut three times ({@code rabbitmqctl
 * close_connection}: the deliveries in flight come back, some of them already committed) and 100 messages already
 * handled are published again with their message-ids (a publisher's retry). Exactly 20,000 rows, each message handled
 * by its handler once, and every delivery that found its key in the inbox counted as a duplicate.
 */
@Tag("wire")
@Tag("database")
class InboxUnderFaultsOnRabbitMqTest {

    static final int MESSAGES = Integer.getInteger("inbox.faults.messages", 20_000);
    static final int REPUBLISHED = 100;
    static final String QUEUE = "t.inbox.faults";
    static final String CONNECTION = "inbox-faults-test-" + ProcessHandle.current().pid();

    @RegisterExtension
    @Order(0)
    static final WireDatabase database = WireDatabase.schema("t_inbox_faults");

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE);

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(() -> {
                try {
                    // No key: a second row for a message would show in the count.
                    database.update("CREATE TABLE effects (id varchar(64) NOT NULL)");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            })
            .withApplicationRoot(jar -> jar.addClasses(Effects.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", WireBroker.URL)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "200ms")
            .overrideConfigKey("quarkus.datasource.jdbc.max-size", "8");

    @Inject
    Effects effects;

    @Inject
    SubscriberStatus status;

    @Test
    void eachMessageHasItsEffectsOnceWhateverComesAgain() throws Exception {
        long started = System.nanoTime();
        RabbitAdmin.with(admin -> {
            admin.confirmPublishes();
            for (int i = 0; i < MESSAGES; i++) {
                admin.publishRaw(QUEUE, Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                        new AMQP.BasicProperties.Builder().messageId("m-" + i).build());
            }
            admin.awaitConfirms();
        });
        double[] cuts = { 0.2, 0.45, 0.7 };
        int cutsMade = 0;
        for (double at : cuts) {
            int threshold = (int) (MESSAGES * at);
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(10))
                    .until(() -> effects.calls() >= threshold);
            for (String connection : RabbitAdmin.connectionsNamed(CONNECTION)) {
                RabbitAdmin.rabbitmqctl("close_connection", connection.substring(0, connection.indexOf('\t')),
                        "fault injected by " + getClass().getSimpleName());
                cutsMade++;
            }
            if (at == 0.45) {
                // Messages handled long ago, published again with their message-ids.
                RabbitAdmin.with(admin -> {
                    admin.confirmPublishes();
                    for (int i = 0; i < REPUBLISHED; i++) {
                        admin.publishRaw(QUEUE, Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                                new AMQP.BasicProperties.Builder().messageId("m-" + i).build());
                    }
                    admin.awaitConfirms();
                });
            }
        }
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100)).until(
                () -> RabbitAdmin.withResult(admin -> admin.depth(QUEUE)) == 0 && effects.calls() >= MESSAGES
                        && outcome("duplicate") >= REPUBLISHED && unsettled() == 0);

        assertTrue(cutsMade >= 3, "3 cuts made: " + cutsMade);
        assertEquals(MESSAGES, database.count("SELECT count(*) FROM effects"), "one row per message");
        assertEquals(MESSAGES, database.count("SELECT count(DISTINCT id) FROM effects"));
        assertEquals(MESSAGES, database.count("SELECT count(*) FROM rabbitmq_subscriber_inbox"));
        assertEquals(MESSAGES, effects.calls(), "the handler ran once per message: every duplicate was caught "
                + "by the inbox before it");
        long duplicates = outcome("duplicate");
        long acks = outcome("ack");
        // Every delivery the handler did not run for found its key: nothing else is counted as a duplicate.
        assertTrue(acks <= MESSAGES, "acks " + acks);
        assertTrue(duplicates >= REPUBLISHED, "duplicates " + duplicates);
        System.out.printf("InboxUnderFaultsOnRabbitMqTest: %d messages, %d republished, %d cuts in %d ms: %d rows, "
                + "%d acks counted, %d duplicates counted (%d from the cuts)%n", MESSAGES, REPUBLISHED, cutsMade,
                (System.nanoTime() - started) / 1_000_000, MESSAGES, acks, duplicates, duplicates - REPUBLISHED);
    }

    long outcome(String label) {
        return status.outcomes().getOrDefault(QUEUE, Map.of()).getOrDefault(label, 0L);
    }

    long unsettled() {
        return status.inFlight();
    }

    @ApplicationScoped
    public static class Effects {

        @Inject
        AgroalDataSource dataSource;

        private final AtomicInteger calls = new AtomicInteger();

        /** A method, not the field: the test holds the bean's client proxy. */
        int calls() {
            return calls.get();
        }

        @Subscriber(value = QUEUE, inbox = true)
        void handle(String id) throws SQLException {
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement("INSERT INTO effects (id) VALUES (?)")) {
                insert.setString(1, id);
                insert.executeUpdate();
            }
            calls.incrementAndGet();
        }
    }
}
