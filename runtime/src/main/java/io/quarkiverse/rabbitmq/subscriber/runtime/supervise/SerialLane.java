package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jboss.logging.Logger;

/**
 * Runs tasks one at a time, in the order they came, on threads of a pool. What a subscriber does about the broker
 * (consume again, give up, stop) goes through its own lane: the steps never overlap, so they need no lock, and the
 * thread that asks (a client thread reporting a cut, a timer) never waits for the broker.
 */
final class SerialLane implements Executor {

    private static final Logger LOG = Logger.getLogger(SerialLane.class);

    private final Executor pool;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();

    SerialLane(Executor pool) {
        this.pool = pool;
    }

    /** Whether no task waits or runs now. */
    boolean idle() {
        return !scheduled.get() && tasks.isEmpty();
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        schedule();
    }

    private void schedule() {
        if (scheduled.compareAndSet(false, true)) {
            pool.execute(this::drain);
        }
    }

    private void drain() {
        Runnable task;
        while ((task = tasks.poll()) != null) {
            try {
                task.run();
            } catch (Throwable t) {
                LOG.error("A subscriber supervision step failed", t);
            }
        }
        scheduled.set(false);
        // A task added after the last poll and before the reset found the lane scheduled: run it now.
        if (!tasks.isEmpty()) {
            schedule();
        }
    }
}
