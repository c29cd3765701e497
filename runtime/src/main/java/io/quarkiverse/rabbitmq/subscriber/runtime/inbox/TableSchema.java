package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Creating and checking the extension's tables ({@code inbox.schema=create|validate}) on PostgreSQL, whichever table;
 * and on H2 in its PostgreSQL mode ({@code MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE}), which takes the same statements, for
 * development with an embedded database.
 */
final class TableSchema {

    /** The databases (as their JDBC drivers name them) the tables are made and tested on. */
    static final java.util.Set<String> SUPPORTED = java.util.Set.of("PostgreSQL", "H2");

    /** Any constant: the lock two instances creating the tables at once take in turn. */
    private static final long CREATE_LOCK = 0x52_4d_51_49_4e_42_4fL;

    private TableSchema() {
    }

    /** Runs the DDL in the caller's transaction; two instances at once take turns. */
    static void create(Connection connection, List<String> ddl) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            if ("PostgreSQL".equals(connection.getMetaData().getDatabaseProductName())) {
                // Two CREATE TABLE IF NOT EXISTS racing can both pass the check and one fail on pg_type's unique
                // index. (An embedded H2 has one instance.)
                statement.execute("SELECT pg_advisory_xact_lock(" + CREATE_LOCK + ")");
            }
            for (String sql : ddl) {
                statement.execute(sql);
            }
        }
    }

    /** The columns a table lacks; all of them when there is no such table. */
    static List<String> missingColumns(Connection connection, String table, List<String> columns)
            throws SQLException {
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
        return columns.stream().filter(column -> !found.contains(column)).toList();
    }
}
