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

import io.quarkiverse.rabbitmq.subscriber.runtime.observe.InboxOutboxFigures;

/**
 * The inbox table on PostgreSQL: its DDL (the same the docs give for Flyway and Liquibase), the check that it is
 * there, and the one statement each inbox transaction begins with. A row is a message a consumer (the subscription's
 * queue) has handled: its key is the primary key with the consumer, so two subscriptions fed by one exchange each
 * handle a message once.
 */
final class InboxTable {

    /** The columns the inbox needs, as {@code information_schema.columns} names them. */
    static final List<String> COLUMNS = List.of("consumer", "message_key", "handled_at", "broker");

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
                + "broker varchar(255), CONSTRAINT " + bare + "_pk PRIMARY KEY (consumer, message_key))",
                // A table made before named brokers: its rows are the default broker's (a null broker).
                "ALTER TABLE " + table + " ADD COLUMN IF NOT EXISTS broker varchar(255)",
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
     * Records that the consumer handled the message (a named broker's: its name, else null), as the first statement of its
     * transaction: false when a row for
     * it is there already (its effects are in). A copy of the message handled at the same moment in another
     * transaction waits for that one's end: then it finds the row (a commit) or inserts it (a rollback).
     */
    boolean record(Connection connection, String consumer, String key, long millis, String broker)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table
                + " (consumer, message_key, handled_at, broker) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            insert.setString(1, consumer);
            insert.setString(2, key);
            // UTC, whatever the zone of the JVM or the database session.
            insert.setTimestamp(3, new Timestamp(millis),
                    utc());
            insert.setString(4, broker);
            return insert.executeUpdate() == 1;
        }
    }

    /**
     * {@link #record} for a batch's keys, in one round trip ({@code executeBatch}): for each key, whether it was
     * recorded now (false: a row for it is there already, or the same key came earlier in the list).
     */
    boolean[] recordAll(Connection connection, String consumer, List<String> keys, long millis, String broker)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table
                + " (consumer, message_key, handled_at, broker) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            Timestamp handledAt = new Timestamp(millis);
            for (String key : keys) {
                insert.setString(1, consumer);
                insert.setString(2, key);
                insert.setTimestamp(3, handledAt, utc());
                insert.setString(4, broker);
                insert.addBatch();
            }
            int[] counts = insert.executeBatch();
            boolean[] recorded = new boolean[keys.size()];
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] == Statement.SUCCESS_NO_INFO) {
                    // pgjdbc's reWriteBatchedInserts=true folds the inserts into one and reports no row counts.
                    throw new SQLException("the driver reports no row count for each insert of a batch (the JDBC URL's "
                            + "reWriteBatchedInserts=true does that): the inbox of a batch handler needs them to tell "
                            + "duplicates. Leave reWriteBatchedInserts off for the inbox's datasource");
                }
                recorded[i] = counts[i] == 1;
            }
            return recorded;
        }
    }

    /** Takes the keys out again, in the caller's transaction: the batch's items whose handler did not ack them. */
    void forget(Connection connection, String consumer, List<String> keys) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table
                + " WHERE consumer = ? AND message_key = ANY(?)")) {
            delete.setString(1, consumer);
            delete.setArray(2, connection.createArrayOf("varchar", keys.toArray()));
            delete.executeUpdate();
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
