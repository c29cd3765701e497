package org.acme.refunds;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import io.quarkiverse.rabbitmq.subscriber.Batch;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

/**
 * Ledger lines booked into PostgreSQL a batch at a time: up to 100 lines per call (or what came within 200 ms of the
 * first), in one transaction. The call returns: every line is acked, in one {@code basic.ack multiple}; it throws: every
 * line of the batch comes back (the queue has no cap: requeued once, then rejected).
 */
@ApplicationScoped
public class LedgerLines {

    private final AtomicInteger batches = new AtomicInteger();

    @Subscriber(value = "ledger-lines", batch = @Batch(size = 100, maxWait = "200ms"))
    @Transactional
    void book(List<LedgerLine> lines) {
        LedgerLineRecord.book(lines);
        batches.incrementAndGet();
    }

    /** How many calls booked the lines so far. */
    public int batches() {
        return batches.get();
    }
}
