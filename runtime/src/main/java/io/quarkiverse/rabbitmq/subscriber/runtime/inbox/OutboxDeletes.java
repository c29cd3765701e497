package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

/**
 * Deletes the outbox rows of groups RabbitMQ confirmed, many groups per transaction: a delete per group would be a
 * second transaction per message (two more round trips to the database), the larger part of the outbox's cost. One
 * flush runs at a time, on a worker; the groups confirmed while it runs wait for the next, which takes them all, so the
 * batches grow with the load and no group waits for a timer. Nobody waits for a delete: a row left behind by a crash or
 * a database that refused is only published again by the relay, with the same message-id (outputs leave at least
 * once).
 */
final class OutboxDeletes {

    private static final Logger LOG = Logger.getLogger(OutboxDeletes.class);
    /** The most groups one transaction deletes (one array parameter). */
    static final int MAX_BATCH = 1000;

    private final Executor worker;
    private final Consumer<List<String>> deleteInTransaction;
    private final String table;
    private final Queue<String> confirmed = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean flushing = new AtomicBoolean();
    private volatile boolean failing;

    /**
     * @param worker where the deletes run (never an event loop)
     * @param deleteInTransaction deletes a batch of groups' rows in a transaction of its own
     * @param table the outbox table's name, for the log
     */
    OutboxDeletes(Executor worker, Consumer<List<String>> deleteInTransaction, String table) {
        this.worker = worker;
        this.deleteInTransaction = deleteInTransaction;
        this.table = table;
    }

    /** The group's outputs were confirmed: its rows go with the next batch. Returns at once. */
    void confirmed(String group) {
        confirmed.add(group);
        startFlush();
    }

    private void startFlush() {
        if (flushing.compareAndSet(false, true)) {
            worker.execute(this::flush);
        }
    }

    private void flush() {
        try {
            List<String> batch;
            while (!(batch = next()).isEmpty()) {
                delete(batch);
            }
        } finally {
            flushing.set(false);
        }
        // A group added between the last poll and the flag's reset would otherwise wait for the next confirm.
        if (!confirmed.isEmpty()) {
            startFlush();
        }
    }

    private List<String> next() {
        List<String> batch = new ArrayList<>();
        String group;
        while (batch.size() < MAX_BATCH && (group = confirmed.poll()) != null) {
            batch.add(group);
        }
        return batch;
    }

    private void delete(List<String> batch) {
        try {
            deleteInTransaction.accept(batch);
            failing = false;
        } catch (RuntimeException e) {
            if (!failing) {
                LOG.warnf("%d published group(s) of outputs could not be deleted from the outbox table '%s' (%s): the "
                        + "relay publishes them again, with the same message-ids. Said again once deletes work",
                        batch.size(), table, e.getMessage());
            }
            failing = true;
        }
    }
}
