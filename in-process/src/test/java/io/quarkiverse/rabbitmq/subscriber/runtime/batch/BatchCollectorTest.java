package io.quarkiverse.rabbitmq.subscriber.runtime.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.VirtualClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.StageFixtures;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;

/**
 * Batches close at their size or at maxWait after their first delivery (on the runtime's clock, here a virtual one),
 * at most the bound of them start at once, a stop lets the open one go, and the deliveries an open batch holds are
 * counted for the in-process broker's idle check.
 */
class BatchCollectorTest {

    final Vertx vertx = Vertx.vertx();
    final Context loop = ((VertxInternal) vertx).createEventLoopContext();
    final VirtualClock clock = new VirtualClock(0);
    final InFlight inFlight = new InFlight();
    final List<List<Long>> started = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() {
        vertx.close();
    }

    private BatchCollector collector(int size, long maxWaitMillis, int limit) {
        BatchCollector collector = new BatchCollector(size, maxWaitMillis, limit, clock, loop, inFlight);
        collector.leadsTo(batch -> started.add(batch.items().stream().map(InboundDelivery::deliveryTag).toList()));
        return collector;
    }

    private void onLoop(Runnable work) throws Exception {
        StageFixtures.onLoop(loop, work);
    }

    private void pass(BatchCollector collector, long from, long to) throws Exception {
        onLoop(() -> {
            for (long tag = from; tag <= to; tag++) {
                collector.pass(null, StageFixtures.delivery(tag));
            }
        });
    }

    @Test
    void aBatchClosesAtItsSize() throws Exception {
        BatchCollector collector = collector(3, 1000, 0);
        pass(collector, 1, 7);
        assertEquals(List.of(List.of(1L, 2L, 3L), List.of(4L, 5L, 6L)), started);
        assertEquals(1, inFlight.heldForClock(), "delivery 7 waits in the open batch");
    }

    @Test
    void aBatchClosesAtMaxWaitAfterItsFirstDelivery() throws Exception {
        BatchCollector collector = collector(10, 1000, 0);
        pass(collector, 1, 2);
        clock.advance(Duration.ofMillis(999), () -> {
        });
        onLoop(() -> {
        });
        assertEquals(List.of(), started);
        assertEquals(2, inFlight.heldForClock());
        clock.advance(Duration.ofMillis(1), () -> {
        });
        assertEquals(0, inFlight.heldForClock(), "released by the timer itself, before the loop closes the batch");
        onLoop(() -> {
        });
        assertEquals(List.of(List.of(1L, 2L)), started);
        pass(collector, 3, 3);
        assertEquals(1, inFlight.heldForClock(), "a new batch, with a timer of its own");
    }

    @Test
    void aTimerOfABatchClosedByItsSizeClosesNothingLater() throws Exception {
        BatchCollector collector = collector(2, 1000, 0);
        pass(collector, 1, 3);
        clock.advance(Duration.ofMillis(500), () -> {
        });
        pass(collector, 4, 4);
        assertEquals(List.of(List.of(1L, 2L), List.of(3L, 4L)), started);
        clock.advance(Duration.ofMillis(600), () -> {
        });
        onLoop(() -> {
        });
        assertEquals(2, started.size());
        assertEquals(0, inFlight.heldForClock());
    }

    @Test
    void atMostTheBoundOfBatchesStartTheOthersWaitForAPlace() throws Exception {
        BatchCollector collector = collector(2, 1000, 1);
        pass(collector, 1, 6);
        assertEquals(List.of(List.of(1L, 2L)), started);
        assertEquals(2, collector.waiting());
        onLoop(collector::finished);
        assertEquals(List.of(List.of(1L, 2L), List.of(3L, 4L)), started);
        onLoop(collector::finished);
        onLoop(collector::finished);
        assertEquals(3, started.size());
        assertEquals(0, collector.running());
    }

    @Test
    void aStopLetsTheOpenBatchGoWithoutWaiting() throws Exception {
        BatchCollector collector = collector(10, 60_000, 0);
        pass(collector, 1, 3);
        onLoop(collector::draining);
        assertEquals(List.of(List.of(1L, 2L, 3L)), started);
        assertEquals(0, inFlight.heldForClock());
    }
}
