package io.quarkiverse.rabbitmq.subscriber.runtime.clock;

import java.time.Duration;

/**
 * The one source of time for the runtime's timers and the in-process broker's TTLs. In production it is the wall
 * clock; in tests a paused {@link VirtualClock} that only moves when the test advances it.
 */
public interface Clock {

    /** Milliseconds since the epoch, as this clock sees it. */
    long millis();

    /**
     * A monotonic reading in nanoseconds, for how long something took or how long ago it was: only the difference of two
     * readings means anything. It runs in real time on every clock (a paused clock adds what its advances moved it on),
     * since what it paces, a flush of acks or a wait for a connection, happens on the wire, which never waits for a
     * test's advance.
     */
    long nanos();

    /** Runs the task once the delay has passed on this clock. */
    Timer schedule(Duration delay, Runnable task);

    /** A scheduled task. */
    interface Timer {
        /** Stops the task from running; returns false when it ran (or was cancelled) already. */
        boolean cancel();
    }
}
