package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.sql.Connection;
import java.time.Duration;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;

/**
 * Deletes inbox rows older than {@code inbox.retention}, every {@code inbox.cleanup.interval}, in batches of
 * {@code inbox.cleanup.batch-size}, each its own short transaction, repeated while a batch comes back full. Every
 * instance runs it; the rows a batch takes are locked {@code SKIP LOCKED}, so instances never wait for each other. A
 * row must outlive every redelivery of its message: a retention shorter than the longest a message may wait between
 * attempts would let a late copy be handled again.
 */
@Singleton
public class InboxCleanup {

    private static final Logger LOG = Logger.getLogger(InboxCleanup.class);

    @Inject
    SubscriberConfig config;

    @Inject
    BrokerSession session;

    @Inject
    InboxTransactions inbox;

    private final ClockedTask passes = new ClockedTask("rabbitmq-subscriber-inbox-cleanup", this::clean);
    private volatile boolean failing;

    /** After the inbox prepared its tables. */
    void start(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE + 20) StartupEvent event) {
        if (inbox.dataSource() != null) {
            passes.start(session.clock(), config.inbox().cleanup().interval());
        }
    }

    void stop(@Observes ShutdownEvent event) {
        passes.stop();
    }

    /** One pass; the delay before the next. */
    private Duration clean() {
        long before = session.clock().millis() - config.inbox().retention().toMillis();
        int batch = config.inbox().cleanup().batchSize();
        long deleted = 0;
        try {
            int last;
            do {
                last = QuarkusTransaction.requiringNew().call(() -> {
                    try (Connection connection = inbox.dataSource().getConnection()) {
                        return inbox.table().deleteOlderThan(connection, before, batch);
                    }
                });
                deleted += last;
            } while (last == batch && passes.running());
            failing = false;
            if (deleted > 0) {
                LOG.debugf("Deleted %d inbox row(s) older than %s", deleted, config.inbox().retention());
            }
        } catch (Exception e) {
            if (!failing) {
                LOG.warnf("Cannot delete old rows of the inbox table '%s': %s. Tried again every %s",
                        inbox.table().name(), e.getMessage(), config.inbox().cleanup().interval());
            }
            failing = true;
        }
        return config.inbox().cleanup().interval();
    }
}
