package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The inbox table on PostgreSQL: its DDL (the same the docs give for Flyway and Liquibase), the check that it is
 * there, and the one statement each inbox transaction begins with. A row is a message a consumer (the subscription's
 * queue) has handled: its key is the primary key with the consumer, so two subscriptions fed by one exchange each
 * handle a message once.
 */
final class InboxTable {

    /** The columns the inbox needs, as {@code information_schema.columns} names them. */
    static final List<String> COLUMNS = List.of("consumer", "message_key", "handled_at");

    /** Any constant: the lock two instances creating the table at once take in turn. */
    private static final long CREATE_LOCK = 0x52_4d_51_49_4e_42_4fL;

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

    /** Creates the table where missing, in the caller's transaction; two instances at once take turns. */
    void create(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            // Two CREATE TABLE IF NOT EXISTS racing can both pass the check and one fail on pg_type's unique index.
            statement.execute("SELECT pg_advisory_xact_lock(" + CREATE_LOCK + ")");
            for (String sql : ddl()) {
                statement.execute(sql);
            }
        }
    }

    /** The columns the inbox needs that the table lacks; all of them when there is no such table. */
    List<String> missingColumns(Connection connection) throws SQLException {
        String bare = table.substring(table.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
        String schema = table.contains(".") ? table.substring(0, table.lastIndexOf('.')).toLowerCase(Locale.ROOT) : null;
        List<String> found = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT column_name FROM information_schema.columns "
                + "WHERE table_name = ? AND table_schema = " + (schema == null ? "current_schema()" : "?"))) {
            query.setString(1, bare);
            if (schema != null) {
                query.setString(2, schema);
            }
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    found.add(rows.getString(1));
                }
            }
        }
        return COLUMNS.stream().filter(column -> !found.contains(column)).toList();
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
                    java.util.Calendar.getInstance(java.util.TimeZone.getTimeZone("UTC")));
            return insert.executeUpdate() == 1;
        }
    }
}
