package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

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
 * Publishes what a crash (or a broker that could not take it) left in the outbox: groups older than
 * {@code outbox.relay.min-age}, so it keeps off the ones whose publish right after their commit is still under way.
 * Every instance runs one, with no leader: each pass locks the head rows of the groups it takes
 * ({@code FOR UPDATE SKIP LOCKED}), so two relays never take the same group and neither waits for the other. A group is
 * published in order, each output confirmed, then its rows deleted in the same transaction; a group that cannot leave
 * (no queue bound, say) is noted on its rows ({@code attempts}, {@code last_error}), blocks no other, and is tried again
 * at the next pass. A full batch is followed by another pass at once, else one every {@code outbox.relay.interval}, on
 * the runtime's clock (the in-process broker's virtual clock in tests), on a thread of its own ({@link ClockedTask}).
 */
@Singleton
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);

    @Inject
    SubscriberConfig config;

    @Inject
    BrokerSession session;

    @Inject
    OutboxGroupPublisher publisher;

    @Inject
    InboxTransactions inbox;

    private final ClockedTask passes = new ClockedTask("rabbitmq-subscriber-outbox-relay", this::pass);
    private volatile OutboxTable.Figures figures = new OutboxTable.Figures(0, null);
    private volatile String lastFailure;
    /** Groups this instance's relay published since it started. */
    private final AtomicLong relayed = new AtomicLong();

    /** After the inbox prepared its tables. */
    void start(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE + 20) StartupEvent event) {
        if (inbox.dataSource() != null && config.outbox().relay().enabled()) {
            passes.start(session.clock(), config.outbox().relay().interval());
        }
    }

    void stop(@Observes ShutdownEvent event) {
        passes.stop();
    }

    /** The rows waiting and the oldest one's time, as the last pass found them. */
    public OutboxTable.Figures figures() {
        return figures;
    }

    /** Whether this instance relays (started, with an inbox, {@code outbox.relay.enabled}). */
    public boolean relaying() {
        return passes.running();
    }

    /** Groups of outputs this instance's relay published since it started (each instance relays a share). */
    public long relayed() {
        return relayed.get();
    }

    /** Why the last pass could not publish or read the outbox; null when it could. */
    public String lastFailure() {
        return lastFailure;
    }

    /** One pass; the delay before the next: none after a full batch (more may wait). */
    private Duration pass() {
        boolean full = false;
        try {
            full = relayOnce();
            try (Connection connection = inbox.dataSource().getConnection()) {
                figures = inbox.outbox().figures(connection);
            }
        } catch (Exception e) {
            if (lastFailure == null) {
                LOG.warnf("The outbox relay could not read the outbox table '%s': %s. It tries again every %s",
                        inbox.outbox().name(), e.getMessage(), config.outbox().relay().interval());
            }
            lastFailure = "the outbox table '" + inbox.outbox().name() + "' could not be read: " + e.getMessage();
        }
        return full ? Duration.ZERO : config.outbox().relay().interval();
    }

    /** One batch; true when it was full (more may wait). */
    private boolean relayOnce() {
        int batch = config.outbox().relay().batchSize();
        long olderThan = session.clock().millis() - config.outbox().relay().minAge().toMillis();
        return QuarkusTransaction.requiringNew().call(() -> {
            try (Connection connection = inbox.dataSource().getConnection()) {
                OutboxTable table = inbox.outbox();
                List<OutboxTable.Group> groups = table.claim(connection, olderThan, batch);
                List<String> published = new ArrayList<>();
                String failure = null;
                for (OutboxTable.Group group : groups) {
                    String why = publish(group);
                    if (why == null) {
                        published.add(group.id());
                    } else {
                        table.failed(connection, group.id(), why);
                        if (failure == null) {
                            failure = why;
                        }
                    }
                }
                if (!published.isEmpty()) {
                    table.delete(connection, published);
                    // Counted before the commit: a commit that fails leaves rows published again, at least once.
                    relayed.addAndGet(published.size());
                    LOG.debugf("The outbox relay published %d group(s) of outputs", published.size());
                }
                if (failure != null && !failure.equals(lastFailure)) {
                    LOG.warnf("The outbox relay could not publish %d of %d group(s) of outputs, the first because "
                            + "%s: it tries again every %s", groups.size() - published.size(), groups.size(), failure,
                            config.outbox().relay().interval());
                }
                lastFailure = failure;
                return groups.size() == batch;
            }
        });
    }

    /** Publishes a group ({@link OutboxGroupPublisher}); null when it left, else why not. */
    private String publish(OutboxTable.Group group) throws InterruptedException {
        try {
            publisher.publish(group.outputs()).get();
            return null;
        } catch (ExecutionException e) {
            return e.getCause() == null ? e.toString() : e.getCause().getMessage();
        }
    }
}
