package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * The in-process server's one thread: it runs operations one at a time in the order they arrive, as a server processes
 * a connection's frames, and knows when it is idle. Timers on the clock hand their work to it too, so the server's
 * state is touched on this thread only. Any thread may call this class.
 */
final class ServerThread {

    /** Logged under the server's name, the category an application configures. */
    private static final Logger LOG = Logger.getLogger(InProcessServer.class);

    private final Clock clock;
    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final Thread thread;
    private final Object idleMonitor = new Object();
    /** Tasks submitted and not finished; with {@link #unacked}, what "idle" means. Guarded by idleMonitor. */
    private int pending;
    private int unacked;
    private volatile boolean stopped;

    /** Timers on the clock, cancelled when the server stops so none outlives it (dev mode keeps Vert.x). */
    private final Set<Clock.Timer> timers = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Starts the thread: the operations it is given may run from now on. */
    ServerThread(Clock clock) {
        this.clock = clock;
        thread = new Thread(this::runTasks, "in-process-rabbitmq");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the thread and cancels the timers; whoever waits for idleness is released. */
    void stop() {
        stopped = true;
        thread.interrupt();
        timers.forEach(Clock.Timer::cancel);
        timers.clear();
        synchronized (idleMonitor) {
            pending = 0;
            unacked = 0;
            idleMonitor.notifyAll();
        }
    }

    private void runTasks() {
        while (!stopped) {
            Runnable task;
            try {
                task = tasks.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.errorf(e, "The in-process broker failed an operation");
            } finally {
                synchronized (idleMonitor) {
                    pending--;
                    idleMonitor.notifyAll();
                }
            }
        }
    }

    /** Runs the operation on the broker thread and waits for its answer. */
    <T> T call(Callable<T> operation) throws BrokerException {
        if (Thread.currentThread() == thread) {
            try {
                return operation.call();
            } catch (BrokerException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        if (stopped) {
            throw new BrokerException(320, "CONNECTION_FORCED - the in-process broker has stopped", null);
        }
        FutureTask<T> task = new FutureTask<>(operation);
        post(task);
        try {
            // Bounded: a server stopped after this call was queued never answers it.
            return task.get(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new BrokerException(320, "CONNECTION_FORCED - the in-process broker did not answer within 60s"
                    + (stopped ? ": it has stopped" : ""), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted waiting for the in-process broker", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof BrokerException refusal) {
                // A fresh exception, so the caller's stack shows where the call came from.
                throw new BrokerException(refusal.replyCode(), refusal.replyText(), refusal);
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Queues the operation for the broker thread, as a client's frame that expects no answer. */
    void post(Runnable operation) {
        if (stopped) {
            // A stopped server takes no frames, as a closed socket would not.
            return;
        }
        synchronized (idleMonitor) {
            pending++;
        }
        tasks.add(operation);
    }

    /** Deliveries sent to consumers and not settled yet. */
    int unacked() {
        synchronized (idleMonitor) {
            return unacked;
        }
    }

    /**
     * Waits until no operation is queued and, if {@code settled}, every delivery has been settled; or fails after the
     * timeout naming what is still unsettled.
     */
    void await(Duration timeout, boolean settled) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (idleMonitor) {
            while (pending > 0 || (settled && unacked > 0)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException("The in-process broker is not idle after " + timeout + ": "
                            + pending + " operation(s) queued, " + unacked + " delivery(ies) unsettled");
                }
                try {
                    idleMonitor.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted waiting for the in-process broker", e);
                }
            }
        }
    }

    /** Counts deliveries made ({@code delta} above 0) or settled (below 0), for {@link #await}. */
    void unackedChanged(int delta) {
        synchronized (idleMonitor) {
            unacked += delta;
        }
    }

    /** A timer whose work runs on the broker thread; remembered until it fires, so stop can cancel it. */
    Clock.Timer schedule(Duration delay, Runnable work) {
        Clock.Timer[] holder = new Clock.Timer[1];
        Clock.Timer timer = clock.schedule(delay, () -> {
            timers.remove(holder[0]);
            post(work);
        });
        holder[0] = timer;
        timers.add(timer);
        return new Clock.Timer() {
            @Override
            public boolean cancel() {
                timers.remove(timer);
                return timer.cancel();
            }
        };
    }
}
