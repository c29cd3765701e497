package org.acme.inbox.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireDatabase;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The ground the inbox stands on: an application with the extension, a JDBC datasource (Agroal) on the real PostgreSQL,
 * and JTA (Narayana); a subscriber on the in-process broker writes a row in its own {@code @Transactional} method.
 */
@Tag("database")
class DatasourceSmokeTest {

    @RegisterExtension
    @Order(1)
    static final WireDatabase database = WireDatabase.schema("t_datasource_smoke");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(() -> {
                try {
                    database.update("CREATE TABLE refunds (id varchar(64) PRIMARY KEY)");
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            })
            .withApplicationRoot(jar -> jar.addClasses(Refunds.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    RabbitPublisher publisher;

    @Test
    void aSubscriberWritesToTheDatabaseInItsTransaction() throws Exception {
        publisher.sendConfirmedAndAwait("t.smoke.refunds", "refund-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> database.count("SELECT count(*) FROM refunds") == 1);
        assertEquals("refund-1", database.query("SELECT id FROM refunds").get(0).get(0));
    }

    @ApplicationScoped
    public static class Refunds {

        @Inject
        AgroalDataSource dataSource;

        @Subscriber("t.smoke.refunds")
        @Transactional
        void record(String id) throws SQLException {
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement("INSERT INTO refunds (id) VALUES (?)")) {
                insert.setString(1, id);
                insert.executeUpdate();
            }
        }
    }
}
