package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;

/**
 * The inbox table on PostgreSQL: its DDL (the same the docs give for Flyway and Liquibase), the check that it is
 * there, and the one statement each inbox transaction begins with. A row is a message a consumer (the subscription's
 * queue) has handled: its key is the primary key with the consumer, so two subscriptions fed by one exchange each
 * handle a message once.
 */
final class InboxTable {

    /** The columns the inbox needs, as {@code information_schema.columns} names them. */
    static final List<String> COLUMNS = List.of("consumer", "message_key", "handled_at");

    private final String table;

    InboxTable(String table) {
        this.table = table;
    }

    String name() {
        return table;
    }

    /** The DDL, in the order it runs. */
    List<String> ddl() {
        String bare = table.substring(table.lastIndexOf('.') + 1);
        return List.of("CREATE TABLE IF NOT EXISTS " + table + " (consumer varchar(255) NOT NULL, "
                + "message_key varchar(" + InboxKey.LONGEST + ") NOT NULL, handled_at timestamp NOT NULL, "
                + "CONSTRAINT " + bare + "_pk PRIMARY KEY (consumer, message_key))",
                "CREATE INDEX IF NOT EXISTS " + bare + "_handled_at ON " + table + " (handled_at)");
    }

    /**
     * Deletes up to {@code limit} rows handled before {@code beforeMillis} that no other instance is deleting, in the
     * caller's transaction; returns how many.
     */
    int deleteOlderThan(Connection connection, long beforeMillis, int limit) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table + " WHERE (consumer, "
                + "message_key) IN (SELECT consumer, message_key FROM " + table + " WHERE handled_at < ? "
                + "ORDER BY handled_at LIMIT ? FOR UPDATE SKIP LOCKED)")) {
            delete.setTimestamp(1, new Timestamp(beforeMillis),
                    utc());
            delete.setInt(2, limit);
            return delete.executeUpdate();
        }
    }

    /**
     * Records that the consumer handled the message, as the first statement of its transaction: false when a row for
     * it is there already (its effects are in). A copy of the message handled at the same moment in another
     * transaction waits for that one's end: then it finds the row (a commit) or inserts it (a rollback).
     */
    boolean record(Connection connection, String consumer, String key, long millis) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table
                + " (consumer, message_key, handled_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
            insert.setString(1, consumer);
            insert.setString(2, key);
            // UTC, whatever the zone of the JVM or the database session.
            insert.setTimestamp(3, new Timestamp(millis),
                    utc());
            return insert.executeUpdate() == 1;
        }
    }

    /** The rows (at most 100,000 counted) and the oldest one's time (through the handled_at index). */
    InboxOutboxFigures.Inbox figures(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT (SELECT count(*) FROM (SELECT 1 FROM " + table
                        + " LIMIT 100000) handled), (SELECT min(handled_at) FROM " + table + ")")) {
            rows.next();
            Timestamp oldest = rows.getTimestamp(2, utc());
            return new InboxOutboxFigures.Inbox(rows.getLong(1), oldest == null ? null : oldest.getTime(), null);
        }
    }

    /** UTC, whatever the zone of the JVM or the database session; a driver may change a calendar: one per call. */
    private static Calendar utc() {
        return Calendar.getInstance(TimeZone.getTimeZone("UTC"));
    }
}
