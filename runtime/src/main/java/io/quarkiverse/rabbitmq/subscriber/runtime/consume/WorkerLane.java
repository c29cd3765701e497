package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one subscription's worker handlers on the worker pool with as few thread hand-offs as keep every delivery
 * moving. Submitting a task to the pool for each delivery wakes a thread per message: for quick handlers that wake-up
 * costs more than the handler. Here a worker takes deliveries from the lane's queue one after the other, and another
 * worker is started only when a delivery is waiting and no worker is free to take it: when a worker starts a delivery
 * while others wait, it starts one more. Handlers that block therefore still run side by side (as many as the
 * dispatcher lets in), and quick ones are worked off by one or two threads.
 * <p>
 * {@code idle} counts the workers that will poll the queue again: started and not yet polling, or between two
 * deliveries. A submitter that sees one leaves the delivery to it; a worker that finds the queue empty stops counting
 * itself before it looks again, so a delivery offered meanwhile is either seen by it or starts a new worker.
 */
public final class WorkerLane {

    private final Executor pool;
    private final Queue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger idle = new AtomicInteger();

    public WorkerLane(Executor pool) {
        this.pool = pool;
    }

    /** Runs the task on a worker. Throws when the pool refuses (it is shut down) and no worker would run it. */
    void submit(Runnable task) {
        queue.offer(task);
        // A busy worker may have taken the task meanwhile: then it runs, and nothing is refused.
        if (!ensureWorker() && queue.remove(task)) {
            throw new java.util.concurrent.RejectedExecutionException("the worker pool is shut down");
        }
    }

    /** Makes sure a worker will poll the queue; false when the pool refused to start one. */
    private boolean ensureWorker() {
        for (;;) {
            int free = idle.get();
            if (free > 0) {
                return true;
            }
            if (idle.compareAndSet(0, 1)) {
                try {
                    pool.execute(this::work);
                    return true;
                } catch (RuntimeException e) {
                    idle.decrementAndGet();
                    return false;
                }
            }
        }
    }

    private void work() {
        // Counted in idle by whoever started this worker.
        for (;;) {
            Runnable task = queue.poll();
            if (task == null) {
                idle.decrementAndGet();
                if (queue.isEmpty() || !becomeIdleAgain()) {
                    return;
                }
                continue;
            }
            idle.decrementAndGet();
            if (!queue.isEmpty()) {
                // Others wait and this worker is about to be busy: let one more worker take them.
                ensureWorker();
            }
            try {
                task.run();
            } catch (Throwable t) {
                // Tasks settle their own failures; this worker must stay counted right whatever escapes.
                org.jboss.logging.Logger.getLogger(WorkerLane.class).error("A worker task failed", t);
            }
            idle.incrementAndGet();
        }
    }

    /** A delivery arrived as this worker stopped: keep working unless another worker is free to take it. */
    private boolean becomeIdleAgain() {
        for (;;) {
            int free = idle.get();
            if (free > 0) {
                return false;
            }
            if (idle.compareAndSet(0, 1)) {
                return true;
            }
        }
    }
}
