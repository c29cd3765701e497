package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/** Confirmed groups' rows deleted many per transaction; no database, the worker run by hand. */
class OutboxDeletesTest {

    private final Queue<Runnable> worker = new ArrayDeque<>();
    private final List<List<String>> transactions = new ArrayList<>();
    private boolean refuse;
    private final OutboxDeletes deletes = new OutboxDeletes(worker::add, groups -> {
        if (refuse) {
            throw new IllegalStateException("the database is away");
        }
        transactions.add(List.copyOf(groups));
    }, "outbox");

    @Test
    void groupsConfirmedWhileAFlushWaitsGoInOneTransaction() {
        deletes.confirmed("g1");
        deletes.confirmed("g2");
        deletes.confirmed("g3");
        assertEquals(1, worker.size(), "one flush at a time");
        runWorker();
        assertEquals(List.of(List.of("g1", "g2", "g3")), transactions);
    }

    @Test
    void aLargeBacklogGoesInBatchesOfAtMostAThousand() {
        IntStream.range(0, 2500).forEach(i -> deletes.confirmed("g" + i));
        runWorker();
        assertEquals(List.of(1000, 1000, 500), transactions.stream().map(List::size).toList());
    }

    @Test
    void aGroupConfirmedAfterAFlushGetsAFlushOfItsOwn() {
        deletes.confirmed("g1");
        runWorker();
        deletes.confirmed("g2");
        runWorker();
        assertEquals(List.of(List.of("g1"), List.of("g2")), transactions);
    }

    @Test
    void aRefusedDeleteLeavesTheRowsForTheRelayAndLaterDeletesStillRun() {
        refuse = true;
        deletes.confirmed("g1");
        runWorker();
        refuse = false;
        deletes.confirmed("g2");
        runWorker();
        assertEquals(List.of(List.of("g2")), transactions, "g1 is published again by the relay, not retried here");
    }

    private void runWorker() {
        Runnable task;
        while ((task = worker.poll()) != null) {
            task.run();
        }
    }
}
