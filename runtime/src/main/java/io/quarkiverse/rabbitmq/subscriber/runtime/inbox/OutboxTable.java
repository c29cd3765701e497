package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;

/**
 * The outbox table on PostgreSQL: the outputs of inbox handlers, written in the handler's transaction and deleted once
 * RabbitMQ confirmed them. A group is the outputs of one transaction, in the order the handler sent them
 * ({@code seq}); its first row ({@code seq = 0}) is the one a relay locks, so two relays never split a group and its
 * order holds. The properties are kept in AMQP's own encoding, so what leaves is what the handler sent, type for type.
 */
final class OutboxTable {

    static final List<String> COLUMNS = List.of("id", "group_id", "seq", "created_at", "exchange", "routing_key",
            "mandatory", "message_id", "properties", "body", "attempts", "last_error", "broker");

    /** A group of outputs the relay took: its rows, in order. */
    record Group(String id, List<Output> outputs) {
    }

    /** How many rows wait, and since when the oldest (null when none). */
    record Figures(long waiting, Long oldestMillis) {
    }

    private final String table;

    OutboxTable(String table) {
        this.table = table;
    }

    String name() {
        return table;
    }

    List<String> ddl() {
        String bare = table.substring(table.lastIndexOf('.') + 1);
        return List.of("CREATE TABLE IF NOT EXISTS " + table + " (id bigserial PRIMARY KEY, "
                + "group_id varchar(36) NOT NULL, seq integer NOT NULL, created_at timestamp NOT NULL, "
                + "exchange varchar(255) NOT NULL, routing_key varchar(255) NOT NULL, mandatory boolean NOT NULL, "
                + "message_id varchar(255), properties bytea NOT NULL, body bytea NOT NULL, "
                + "attempts integer NOT NULL DEFAULT 0, last_error varchar(1000), broker varchar(255))",
                // A table made before named brokers: its rows are the default broker's (a null broker).
                "ALTER TABLE " + table + " ADD COLUMN IF NOT EXISTS broker varchar(255)",
                "CREATE INDEX IF NOT EXISTS " + bare + "_group ON " + table + " (group_id)");
    }

    /** Writes a group's rows from {@code firstSeq} on, in the caller's transaction, one batch. */
    void write(Connection connection, String group, int firstSeq, long millis, List<Output> outputs)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table + " (group_id, seq, "
                + "created_at, exchange, routing_key, mandatory, message_id, properties, body, broker) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            Timestamp now = new Timestamp(millis);
            for (int seq = 0; seq < outputs.size(); seq++) {
                Output output = outputs.get(seq);
                insert.setString(1, group);
                insert.setInt(2, firstSeq + seq);
                insert.setTimestamp(3, now, utc());
                insert.setString(4, output.exchange());
                insert.setString(5, output.routingKey());
                insert.setBoolean(6, output.mandatory());
                insert.setString(7, output.properties().getMessageId());
                insert.setBytes(8, WireProperties.encode(output.properties()));
                insert.setBytes(9, output.body());
                insert.setString(10, io.quarkiverse.rabbitmq.subscriber.Broker.DEFAULT.equals(output.broker()) ? null
                        : output.broker());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    /** Deletes the groups' rows: they were confirmed. */
    void delete(Connection connection, Collection<String> groups) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table
                + " WHERE group_id = ANY (?)")) {
            delete.setArray(1, connection.createArrayOf("varchar", groups.toArray()));
            delete.executeUpdate();
        }
    }

    /**
     * Locks up to {@code limit} groups written before {@code olderThanMillis} that no other relay holds, and reads
     * their rows; the locks last to the end of the caller's transaction.
     */
    List<Group> claim(Connection connection, long olderThanMillis, int limit) throws SQLException {
        List<String> heads = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT group_id FROM " + table
                + " WHERE seq = 0 AND created_at < ? ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED")) {
            select.setTimestamp(1, new Timestamp(olderThanMillis), utc());
            select.setInt(2, limit);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    heads.add(rows.getString(1));
                }
            }
        }
        if (heads.isEmpty()) {
            return List.of();
        }
        Map<String, List<Output>> groups = new LinkedHashMap<>();
        heads.forEach(head -> groups.put(head, new ArrayList<>()));
        try (PreparedStatement select = connection.prepareStatement("SELECT group_id, exchange, routing_key, "
                + "mandatory, properties, body, broker FROM " + table + " WHERE group_id = ANY (?) ORDER BY id")) {
            select.setArray(1, connection.createArrayOf("varchar", heads.toArray()));
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    groups.get(rows.getString(1)).add(new Output(rows.getString(2), rows.getString(3),
                            WireProperties.decode(rows.getBytes(5)), rows.getBytes(6), rows.getBoolean(4),
                            rows.getString(7) == null ? io.quarkiverse.rabbitmq.subscriber.Broker.DEFAULT
                                    : rows.getString(7)));
                }
            }
        }
        List<Group> claimed = new ArrayList<>(groups.size());
        groups.forEach((id, outputs) -> claimed.add(new Group(id, outputs)));
        return claimed;
    }

    /** Notes on a group's rows why the relay could not publish it this time. */
    void failed(Connection connection, String group, String error) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("UPDATE " + table
                + " SET attempts = attempts + 1, last_error = ? WHERE group_id = ?")) {
            update.setString(1, error.length() > 1000 ? error.substring(0, 1000) : error);
            update.setString(2, group);
            update.executeUpdate();
        }
    }

    /** UTC, whatever the zone of the JVM or the database session; a driver may change a calendar: one per call. */
    private static Calendar utc() {
        return Calendar.getInstance(TimeZone.getTimeZone("UTC"));
    }

    /**
     * The rows waiting (at most 100,000 counted, so a large backlog stays cheap) and the oldest one's time (the first by
     * id, through the primary key's index).
     */
    Figures figures(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT (SELECT count(*) FROM (SELECT 1 FROM " + table
                        + " LIMIT 100000) waiting), (SELECT created_at FROM " + table + " ORDER BY id LIMIT 1)")) {
            rows.next();
            Timestamp oldest = rows.getTimestamp(2, utc());
            return new Figures(rows.getLong(1), oldest == null ? null : oldest.getTime());
        }
    }
}
