package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.time.Duration;
import java.util.PriorityQueue;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * A paused clock: time moves only in {@link #advance(Duration, Runnable)}, which fires every timer that falls due, in
 * time order, each at its own instant. Between two timers it lets the caller settle the consequences (the in-process
 * broker waits until it is idle), so a timer set by the work of an earlier one fires within the same advance when it
 * falls due inside it.
 */
public final class VirtualClock implements Clock {

    private final PriorityQueue<Scheduled> timers = new PriorityQueue<>();
    private long now;
    private final long start;
    private long sequence;

    public VirtualClock(long startMillis) {
        this.now = startMillis;
        this.start = startMillis;
    }

    private final class Scheduled implements Timer, Comparable<Scheduled> {
        final long due;
        final long order;
        final Runnable task;
        boolean done;

        Scheduled(long due, long order, Runnable task) {
            this.due = due;
            this.order = order;
            this.task = task;
        }

        @Override
        public boolean cancel() {
            synchronized (VirtualClock.this) {
                if (done) {
                    return false;
                }
                done = true;
                timers.remove(this);
                return true;
            }
        }

        @Override
        public int compareTo(Scheduled other) {
            int byDue = Long.compare(due, other.due);
            return byDue != 0 ? byDue : Long.compare(order, other.order);
        }
    }

    @Override
    public synchronized long millis() {
        return now;
    }

    /** Real time, plus what the advances moved this clock on: see {@link Clock#nanos()}. */
    @Override
    public synchronized long nanos() {
        return System.nanoTime() + (now - start) * 1_000_000L;
    }

    @Override
    public synchronized Timer schedule(Duration delay, Runnable task) {
        Scheduled timer = new Scheduled(now + Math.max(0, delay.toMillis()), sequence++, task);
        timers.add(timer);
        return timer;
    }

    /**
     * Moves time forward by {@code duration}, running each timer that falls due at its instant, and
     * {@code settle} after each one (and once at the end).
     */
    public void advance(Duration duration, Runnable settle) {
        long target;
        synchronized (this) {
            target = now + duration.toMillis();
        }
        settle.run();
        while (true) {
            Scheduled next;
            synchronized (this) {
                next = timers.peek();
                if (next == null || next.due > target) {
                    now = target;
                    break;
                }
                timers.poll();
                next.done = true;
                now = Math.max(now, next.due);
            }
            next.task.run();
            settle.run();
        }
        settle.run();
    }

}
