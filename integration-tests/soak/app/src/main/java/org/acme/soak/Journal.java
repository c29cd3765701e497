package org.acme.soak;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.rabbitmq.subscriber.Delivery;

/**
 * What was handled, one row per handler call, in PostgreSQL: it outlives a kill -9 of the application, and the
 * script's report counts from it what was handled once, twice, and how long after its publish.
 */
@ApplicationScoped
public class Journal {

    static final String TABLE = "soak_handled";

    @Inject
    AgroalDataSource dataSource;

    /** A row for the delivery, on a connection of its own (or the inbox's transaction's, where there is one). */
    void handled(String queue, String id, Delivery delivery, String key) {
        Object publishedAt = delivery.headers().get("soak-published-at");
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + TABLE
                        + " (queue, id, published_at, handled_at, attempt, partition_key) VALUES (?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, queue);
            insert.setString(2, id);
            insert.setLong(3, publishedAt == null ? 0 : Long.parseLong(publishedAt.toString()));
            insert.setLong(4, System.currentTimeMillis());
            insert.setInt(5, delivery.attempt());
            insert.setString(6, key);
            insert.executeUpdate();
        } catch (SQLException e) {
            // The handler fails: the message is retried (a duplicate row at worst), never lost.
            throw new IllegalStateException("Cannot journal " + id + ": " + e.getMessage(), e);
        }
    }
}
