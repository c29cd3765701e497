package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.sql.Connection;
import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.InboxOutboxFigures;

/**
 * Reads the figures of {@link InboxOutboxFigures}: the outbox's from the relay's last pass (which counts them anyway),
 * the inbox's on demand. Ages are on the runtime's clock, the one the rows are written with (the in-process broker's
 * virtual clock in tests).
 */
@Singleton
public class InboxOutboxFiguresReader implements InboxOutboxFigures {

    @Inject
    SubscriberConfig config;

    @Inject
    BrokerSession session;

    @Inject
    InboxTransactions inbox;

    @Inject
    OutboxRelay relay;

    @Override
    public boolean active() {
        return inbox.dataSource() != null;
    }

    @Override
    public Outbox outbox() {
        OutboxTable.Figures figures = relay.figures();
        Long age = figures.oldestMillis() == null ? null
                : Math.max(0, session.clock().millis() - figures.oldestMillis());
        return new Outbox(relay.relaying(), figures.waiting(), age, relay.lastFailure(), relay.relayed());
    }

    @Override
    public Inbox inbox() {
        if (!active()) {
            return new Inbox(0, null, null);
        }
        try (Connection connection = inbox.dataSource().getConnection()) {
            return inbox.table().figures(connection);
        } catch (Exception e) {
            return new Inbox(-1, null, "the inbox table '" + inbox.table().name() + "' could not be read: "
                    + e.getMessage());
        }
    }

    @Override
    public String stuck() {
        Outbox outbox = outbox();
        Duration bound = config.outbox().stuckAfter();
        if (outbox.oldestAgeMillis() == null || outbox.oldestAgeMillis() <= bound.toMillis()) {
            return null;
        }
        return "the outbox table '" + inbox.outbox().name() + "' has held " + outbox.waiting() + " row(s) for up to "
                + Duration.ofMillis(outbox.oldestAgeMillis()).toSeconds() + " s (quarkus.rabbitmq-subscriber.outbox."
                + "stuck-after=" + bound + ")" + (outbox.lastFailure() == null ? ""
                        : ": the relay cannot publish them, " + outbox.lastFailure());
    }
}
