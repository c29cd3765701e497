package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The worker lane runs every task it is given, lets blocking tasks run side by side, and works quick ones off with
 * few threads.
 */
class WorkerLaneTest {

    private final AtomicInteger started = new AtomicInteger();
    private final ExecutorService pool = Executors.newCachedThreadPool(task -> {
        started.incrementAndGet();
        return new Thread(task);
    });

    @AfterEach
    void close() {
        pool.shutdownNow();
    }

    @Test
    void blockingTasksRunSideBySide() throws Exception {
        WorkerLane lane = new WorkerLane(pool);
        CountDownLatch allRunning = new CountDownLatch(8);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < 8; i++) {
            lane.submit(() -> {
                allRunning.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        // Eight tasks that each wait for the others: only possible if all eight run at once.
        assertTrue(allRunning.await(5, TimeUnit.SECONDS), "every blocking task got a worker");
        release.countDown();
    }

    @Test
    void everyTaskRunsUnderContention() throws Exception {
        WorkerLane lane = new WorkerLane(pool);
        int tasks = 200_000;
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(tasks);
        // Submitted from one thread, as the subscriber's event loop does, in bursts with pauses between them.
        for (int i = 0; i < tasks; i++) {
            lane.submit(() -> {
                ran.incrementAndGet();
                done.countDown();
            });
            if (i % 1_000 == 0) {
                Thread.onSpinWait();
            }
        }
        assertTrue(done.await(30, TimeUnit.SECONDS), "stranded tasks: " + (tasks - ran.get()));
        assertEquals(tasks, ran.get());
    }

    @Test
    void quickTasksUseFewThreads() throws Exception {
        WorkerLane lane = new WorkerLane(pool);
        CountDownLatch done = new CountDownLatch(10_000);
        for (int i = 0; i < 10_000; i++) {
            lane.submit(done::countDown);
        }
        assertTrue(done.await(10, TimeUnit.SECONDS));
        assertTrue(started.get() < 100, "threads started for 10,000 quick tasks: " + started.get());
    }
}
