package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.runtime.publish.TransactionalSends;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;

/**
 * {@code RabbitPublisher} inside the application's own JTA transaction ({@code outbox.enabled}): each send is a row of
 * the outbox, written on the caller's thread in its transaction (the datasource enlists the connection, as it does for
 * Hibernate ORM), so the message and the application's writes commit or roll back together. The transaction's sends
 * form one group; the first registers an interposed synchronization, which hands the group to
 * {@link OutboxAfterCommit} once the transaction committed (after a rollback there is nothing: the rows went with it).
 */
@Singleton
public class TransactionOutbox implements TransactionalSends {

    /** The key of the transaction's group among the registry's resources. */
    private static final Object GROUP = new Object();

    @Inject
    TransactionSynchronizationRegistry registry;

    @Inject
    InboxTransactions tables;

    @Inject
    BrokerSession session;

    @Inject
    OutboxAfterCommit afterCommit;

    @Override
    public Object transaction() {
        int status = registry.getTransactionStatus();
        return status == Status.STATUS_ACTIVE || status == Status.STATUS_MARKED_ROLLBACK ? registry.getTransactionKey()
                : null;
    }

    @Override
    public void write(String broker, String exchange, String routingKey, boolean mandatory, AMQP.BasicProperties properties,
            byte[] body) {
        String destination = exchange.isEmpty() ? "queue '" + routingKey + "'"
                : "exchange '" + exchange + "' (routing key '" + routingKey + "')";
        if (registry.getTransactionStatus() != Status.STATUS_ACTIVE) {
            throw new IllegalStateException("A message to " + destination + " was sent inside a transaction that "
                    + "is marked for rollback: it would never be published, so it is not written to the outbox");
        }
        Group group = (Group) registry.getResource(GROUP);
        boolean first = group == null;
        if (first) {
            group = new Group(UUID.randomUUID().toString());
        }
        Output output = new Output(exchange, routingKey, properties, body, mandatory, broker);
        try (Connection connection = tables.dataSource().getConnection()) {
            tables.outbox().write(connection, group.id, group.outputs.size(), session.clock().millis(),
                    List.of(output));
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot write a message to " + destination + " to the outbox table '"
                    + tables.outbox().name() + "' in the caller's transaction: " + e.getMessage(), e);
        }
        group.outputs.add(output);
        if (first) {
            registry.putResource(GROUP, group);
            Group committed = group;
            registry.registerInterposedSynchronization(new jakarta.transaction.Synchronization() {
                @Override
                public void beforeCompletion() {
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        afterCommit.publish(committed.id, committed.outputs);
                    }
                }
            });
        }
    }

    /** A transaction's sends: its group id and its outputs in the order they were written. */
    private static final class Group {
        final String id;
        final List<Output> outputs = new ArrayList<>();

        Group(String id) {
            this.id = id;
        }
    }
}
