package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkus.narayana.jta.QuarkusTransaction;

/**
 * The inbox's and the outbox's tables at startup, as {@code quarkus.rabbitmq-subscriber.inbox.schema} says: created
 * ({@code create}), checked ({@code validate}) or left alone ({@code none}), on a database they are made for; a
 * failure stops the startup, naming what is at fault and the DDL that would fix it. Kept apart from
 * {@link InboxTransactions}, which runs each delivery in its transaction once the tables are there: this runs once,
 * before any subscriber consumes.
 */
final class InboxSchemaSetup {

    private InboxSchemaSetup() {
    }

    /**
     * Creates or checks the tables on {@code dataSource} ({@code dataSourceName}, as the configuration names it, for
     * the messages), or does nothing under {@code none}.
     */
    static void apply(AgroalDataSource dataSource, String dataSourceName, SubscriberConfig.InboxSchema mode,
            InboxTable table, OutboxTable outbox) throws SQLException {
        if (mode == SubscriberConfig.InboxSchema.NONE) {
            return;
        }
        try (Connection connection = dataSource.getConnection()) {
            String product = connection.getMetaData().getDatabaseProductName();
            if (!TableSchema.SUPPORTED.contains(product)) {
                throw new IllegalStateException("The inbox's datasource " + InboxTransactions.describe(dataSourceName)
                        + " is " + product + ": the inbox and the outbox are built and tested on PostgreSQL (and on H2 "
                        + "in its PostgreSQL mode, for development) only so far");
            }
            if (mode == SubscriberConfig.InboxSchema.CREATE) {
                QuarkusTransaction.requiringNew().run(() -> {
                    try (Connection inTransaction = dataSource.getConnection()) {
                        TableSchema.create(inTransaction, ddl(table, outbox));
                    } catch (SQLException e) {
                        throw new IllegalStateException("Cannot create the inbox table '" + table.name() + "' and "
                                + "the outbox table '" + outbox.name() + "' on datasource "
                                + InboxTransactions.describe(dataSourceName) + ": " + e.getMessage()
                                + ". Create them with the DDL of the Exactly-once effects page and "
                                + "set quarkus.rabbitmq-subscriber.inbox.schema=validate", e);
                    }
                });
                return;
            }
            List<String> problems = new ArrayList<>();
            problems.addAll(missing(connection, "inbox", table.name(), InboxTable.COLUMNS));
            problems.addAll(missing(connection, "outbox", outbox.name(), OutboxTable.COLUMNS));
            if (!problems.isEmpty()) {
                String all = String.join("; ", problems);
                throw new IllegalStateException(Character.toUpperCase(all.charAt(0)) + all.substring(1)
                        + " on datasource " + InboxTransactions.describe(dataSourceName)
                        + " (quarkus.rabbitmq-subscriber.inbox.schema=validate). Create them with: "
                        + String.join("; ", ddl(table, outbox)) + "; or set inbox.schema=create");
            }
        }
    }

    private static List<String> missing(Connection connection, String what, String name, List<String> columns)
            throws SQLException {
        List<String> missing = TableSchema.missingColumns(connection, name, columns);
        if (missing.isEmpty()) {
            return List.of();
        }
        return List.of("the " + what + " table '" + name + "'" + (missing.size() == columns.size() ? " does not exist"
                : " lacks the column(s) " + missing));
    }

    /** Both tables' DDL, the inbox's first. */
    private static List<String> ddl(InboxTable table, OutboxTable outbox) {
        List<String> ddl = new ArrayList<>(table.ddl());
        ddl.addAll(outbox.ddl());
        return ddl;
    }
}
