package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberBuildTimeConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.quarkus.agroal.runtime.AgroalDataSourceUtil;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * The inbox on the application's database: each delivery of an {@code inbox = true} subscription is handled in a new
 * JTA transaction ({@code QuarkusTransaction.requiringNew()}, which the handler's own {@code @Transactional} methods,
 * Hibernate ORM and Panache join) whose first statement records the message's key; a key already there ends it at once
 * as a duplicate. Only an ack commits: any other result rolls back, so a retried attempt leaves nothing. A bean only
 * in applications with Agroal and JTA; it does nothing unless a subscription has an inbox (whose datasource is checked
 * at build time).
 */
@Singleton
public class InboxTransactions implements Inbox {

    private static final Logger LOG = Logger.getLogger(InboxTransactions.class);
    /** How often a subscription says it handles messages without a key. */
    private static final long UNKEYED_WARN_MILLIS = 10 * 60_000;

    @Inject
    SubscriberConfig config;

    @Inject
    SubscriberBuildTimeConfig buildTimeConfig;

    @Inject
    BrokerSession session;

    /** What the build found: whether any subscription has an inbox. */
    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.FoundSubscribers found;

    private volatile InboxKey key;
    private volatile InboxTable table;
    private volatile OutboxTable outbox;
    private volatile AgroalDataSource dataSource;
    private volatile OutboxDeletes deletes;
    private final Map<String, Long> unkeyedWarned = new ConcurrentHashMap<>();

    /**
     * Before any subscriber consumes: the key setting read, the datasource found, the table created or checked
     * ({@code inbox.schema}); a failure stops the startup, naming what is at fault.
     */
    void prepare(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE + 10) StartupEvent event)
            throws SQLException {
        if (found.definitions().stream().noneMatch(definition -> definition.subscription.inbox)
                && !buildTimeConfig.outbox().enabled()) {
            return;
        }
        key = InboxKey.parse(config.inbox().key());
        table = new InboxTable(config.inbox().table());
        outbox = new OutboxTable(config.outbox().table());
        deletes = new OutboxDeletes(Infrastructure.getDefaultWorkerPool(), this::deletePublished, outbox.name());
        String name = buildTimeConfig.inbox().datasource();
        dataSource = AgroalDataSourceUtil.dataSourceIfActive(name).orElseThrow(() -> new IllegalStateException(
                "The inbox's datasource " + describe(name) + " is not active: activate it, or name another one with "
                        + "quarkus.rabbitmq-subscriber.inbox.datasource"));
        InboxSchemaSetup.apply(dataSource, name, config.inbox().schema(), table, outbox);
    }

    @Override
    public Object run(String consumer, InboundDelivery delivery, Function<InboundDelivery, Object> handling,
            Predicate<Object> acks) {
        String messageKey = key.of(delivery);
        if (messageKey == null) {
            warnUnkeyed(consumer);
        }
        long now = session.clock().millis();
        try {
            return QuarkusTransaction.requiringNew().timeout(timeoutSeconds())
                    .call(() -> handleInTransaction(consumer, delivery, messageKey, now, handling, acks));
        } catch (NotAcked notAcked) {
            return notAcked.result;
        }
    }

    /**
     * What {@link #run} does inside its transaction: records the key, handles the delivery, and returns only on an ack
     * (the transaction then commits); a duplicate or any other result throws {@link NotAcked} to roll it back. A
     * method of its own, not a lambda's body, so that the crash test's Byteman rule can name it ({@code CrashRules}:
     * its exit is the point just before the commit).
     */
    private Object handleInTransaction(String consumer, InboundDelivery delivery, String messageKey, long now,
            Function<InboundDelivery, Object> handling, Predicate<Object> acks) {
        if (messageKey != null && !record(consumer, delivery, messageKey, now)) {
            throw new NotAcked(Verdict.DUPLICATE);
        }
        Object result = handling.apply(delivery);
        if (!acks.test(result)) {
            throw new NotAcked(result);
        }
        return result;
    }

    @Override
    public Object runBatch(String consumer, List<InboundDelivery> items, Consumer<InboundDelivery> duplicate,
            Function<List<InboundDelivery>, Handled> handling) {
        long now = session.clock().millis();
        try {
            return QuarkusTransaction.requiringNew().timeout(timeoutSeconds())
                    .call(() -> handleBatchInTransaction(consumer, items, duplicate, handling, now));
        } catch (NotAcked notAcked) {
            return notAcked.result;
        }
    }

    /**
     * What {@link #runBatch} does inside its transaction: records the keys, handles the fresh items, takes out the keys
     * of those not acked, and returns when at least one was acked (the transaction then commits); none acked throws
     * {@link NotAcked} to roll it back. A method of its own, not a lambda's body, so that the crash test's Byteman rule
     * can name it ({@code CrashRules}: its exit is the point just before the commit).
     */
    private Object handleBatchInTransaction(String consumer, List<InboundDelivery> items,
            Consumer<InboundDelivery> duplicate, Function<List<InboundDelivery>, Handled> handling, long now) {
        List<InboundDelivery> fresh = recordAll(consumer, items, duplicate, now);
        Handled handled = handling.apply(fresh);
        if (handled.acked().isEmpty()) {
            throw new NotAcked(handled.result());
        }
        List<String> notAcked = new ArrayList<>();
        java.util.Set<InboundDelivery> acked = java.util.Collections.newSetFromMap(
                new java.util.IdentityHashMap<>());
        acked.addAll(handled.acked());
        for (InboundDelivery item : fresh) {
            String messageKey = acked.contains(item) ? null : key.of(item);
            if (messageKey != null) {
                notAcked.add(messageKey);
            }
        }
        if (!notAcked.isEmpty()) {
            forget(consumer, notAcked);
        }
        return handled.result();
    }

    /** Records the items' keys; returns the items not in the inbox yet, the duplicates told to {@code duplicate}. */
    private List<InboundDelivery> recordAll(String consumer, List<InboundDelivery> items,
            Consumer<InboundDelivery> duplicate, long now) {
        List<InboundDelivery> keyed = new ArrayList<>(items.size());
        List<String> keys = new ArrayList<>(items.size());
        for (InboundDelivery item : items) {
            String messageKey = key.of(item);
            if (messageKey == null) {
                warnUnkeyed(consumer);
            } else {
                keyed.add(item);
                keys.add(messageKey);
            }
        }
        boolean[] recorded;
        try (Connection connection = dataSource.getConnection()) {
            recorded = keys.isEmpty() ? new boolean[0]
                    : table.recordAll(connection, consumer, keys, now,
                            brokerColumn(consumer));
        } catch (SQLException e) {
            throw new IllegalStateException("The inbox could not record a batch of " + items.size() + " messages of "
                    + "queue '" + consumer + "' in table '" + table.name() + "' (datasource "
                    + describe(buildTimeConfig.inbox().datasource()) + "): " + e.getMessage(), e);
        }
        java.util.Set<InboundDelivery> duplicates = java.util.Collections.newSetFromMap(
                new java.util.IdentityHashMap<>());
        for (int i = 0; i < recorded.length; i++) {
            if (!recorded[i]) {
                duplicates.add(keyed.get(i));
                duplicate.accept(keyed.get(i));
            }
        }
        List<InboundDelivery> fresh = new ArrayList<>(items.size());
        for (InboundDelivery item : items) {
            if (!duplicates.contains(item)) {
                fresh.add(item);
            }
        }
        return fresh;
    }

    private void forget(String consumer, List<String> keys) {
        try (Connection connection = dataSource.getConnection()) {
            table.forget(connection, consumer, keys);
        } catch (SQLException e) {
            throw new IllegalStateException("The inbox could not take out the keys of " + keys.size() + " message(s) "
                    + "of queue '" + consumer + "' its handler did not ack, in table '" + table.name() + "': "
                    + e.getMessage(), e);
        }
    }

    @Override
    public String toOutbox(List<Output> outputs) {
        String group = UUID.randomUUID().toString();
        try (Connection connection = dataSource.getConnection()) {
            outbox.write(connection, group, 0, session.clock().millis(), outputs);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot write " + outputs.size() + " output(s) to the outbox table '"
                    + outbox.name() + "' (datasource " + describe(buildTimeConfig.inbox().datasource()) + "): "
                    + e.getMessage(), e);
        }
        return group;
    }

    @Override
    public void published(String group) {
        deletes.confirmed(group);
    }

    @Override
    public int connections() {
        AgroalDataSource current = dataSource;
        if (current == null) {
            return 0;
        }
        long inboxes = found.definitions().stream().filter(definition -> definition.subscription.inbox).count();
        return share(current.getConfiguration().connectionPoolConfiguration().maxSize(), inboxes);
    }

    /** An even share of the pool for each inbox subscription, two connections kept for the relay and the deletes. */
    static int share(int poolSize, long inboxSubscriptions) {
        int background = poolSize > 4 ? 2 : 0;
        return (int) Math.max(1, (poolSize - background) / Math.max(1, inboxSubscriptions));
    }

    /** The datasource and the outbox table, for the relay; null before startup or without inbox subscriptions. */
    AgroalDataSource dataSource() {
        return dataSource;
    }

    InboxTable table() {
        return table;
    }

    OutboxTable outbox() {
        return outbox;
    }

    private boolean record(String consumer, InboundDelivery delivery, String messageKey, long now) {
        try (Connection connection = dataSource.getConnection()) {
            return table.record(connection, consumer, messageKey, now, brokerColumn(consumer));
        } catch (SQLException e) {
            throw new IllegalStateException("The inbox could not record " + delivery.describe() + " of queue '"
                    + consumer + "' in table '" + table.name() + "' (datasource "
                    + describe(buildTimeConfig.inbox().datasource()) + "): " + e.getMessage(), e);
        }
    }

    /** Deletes confirmed groups' rows, in a transaction of its own. */
    private void deletePublished(List<String> groups) {
        QuarkusTransaction.requiringNew().run(() -> {
            try (Connection connection = dataSource.getConnection()) {
                outbox.delete(connection, groups);
            } catch (SQLException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        });
    }

    private int timeoutSeconds() {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, config.inbox().transactionTimeout().toSeconds()));
    }

    /** What the broker column says of a consumer's rows: its named broker, or null for the default one. */
    private String brokerColumn(String consumer) {
        String broker = found.brokerOf(consumer);
        return io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions.isDefault(broker) ? null : broker;
    }

    private void warnUnkeyed(String consumer) {
        long now = session.clock().millis();
        // Decided atomically: two messages without a key handled at once on two workers still say it once.
        boolean[] due = { false };
        unkeyedWarned.compute(consumer, (ignored, last) -> {
            due[0] = last == null || now - last >= UNKEYED_WARN_MILLIS;
            return due[0] ? now : last;
        });
        if (due[0]) {
            LOG.warnf("A message on queue '%s' has no inbox key (%s): it is handled in the transaction as usual, but "
                    + "a redelivery of it would be handled again. Give messages a message-id (RabbitPublisher and "
                    + "Outputs always do), or set quarkus.rabbitmq-subscriber.inbox.key. Said once every 10 minutes",
                    consumer, key.describe().replace("its ", "no "));
        }
    }

    /** A datasource's name for messages: {@code (the default one)} or {@code 'name'}. */
    static String describe(String name) {
        return "<default>".equals(name) ? "(the default one)" : "'" + name + "'";
    }

    /** Ends the transaction with a rollback, carrying what the handling came to (a carrier: no stack trace). */
    private static final class NotAcked extends RuntimeException {
        final transient Object result;

        NotAcked(Object result) {
            super(null, null, false, false);
            this.result = result;
        }
    }
}
