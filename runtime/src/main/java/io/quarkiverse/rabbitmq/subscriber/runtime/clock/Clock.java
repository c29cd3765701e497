package io.quarkiverse.rabbitmq.subscriber.runtime.clock;

import java.time.Duration;

/**
 * The one source of time for the runtime's timers and the in-process broker's TTLs. In production it is the wall
 * clock; in tests a paused {@link VirtualClock} that only moves when the test advances it.
 */
public interface Clock {

    /** Milliseconds since the epoch, as this clock sees it. */
    long millis();

    /** Runs the task once the delay has passed on this clock. */
    Timer schedule(Duration delay, Runnable task);

    /** A scheduled task. */
    interface Timer {
        /** Stops the task from running; returns false when it ran (or was cancelled) already. */
        boolean cancel();
    }
}
