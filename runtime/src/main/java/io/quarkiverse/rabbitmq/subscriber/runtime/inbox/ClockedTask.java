package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * A pass run again and again on a daemon thread of its own, each after the delay the last one asked for, timed on the
 * runtime's clock (the in-process broker's virtual clock in tests): the outbox relay and the inbox cleanup. A pass
 * catches what it can fail on itself; stopping cancels the next pass and waits a while for the running one.
 */
final class ClockedTask {

    private final String threadName;
    private final Supplier<Duration> pass;
    private volatile Clock clock;
    private volatile ExecutorService thread;
    private volatile Clock.Timer next;
    private volatile boolean stopped;

    /** @param pass one pass; returns the delay before the next */
    ClockedTask(String threadName, Supplier<Duration> pass) {
        this.threadName = threadName;
        this.pass = pass;
    }

    /** Runs the first pass after {@code delay}. */
    void start(Clock clock, Duration delay) {
        this.clock = clock;
        thread = Executors.newSingleThreadExecutor(task -> {
            Thread own = new Thread(task, threadName);
            own.setDaemon(true);
            return own;
        });
        schedule(delay);
    }

    /** Whether it was started and is not stopped. */
    boolean running() {
        return thread != null && !stopped;
    }

    void stop() {
        stopped = true;
        Clock.Timer pending = next;
        if (pending != null) {
            pending.cancel();
        }
        ExecutorService running = thread;
        if (running != null) {
            running.shutdown();
            try {
                running.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void schedule(Duration delay) {
        if (!stopped) {
            next = clock.schedule(delay, this::hand);
        }
    }

    /** From the clock's timer to the task's own thread. */
    private void hand() {
        try {
            thread.execute(this::run);
        } catch (RejectedExecutionException stopping) {
            // Stopped between the timer's firing and here: no more passes.
        }
    }

    private void run() {
        if (!stopped) {
            schedule(pass.get());
        }
    }
}
