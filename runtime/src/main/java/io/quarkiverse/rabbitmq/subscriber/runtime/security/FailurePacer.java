package io.quarkiverse.rabbitmq.subscriber.runtime.security;

import java.util.function.LongSupplier;

/**
 * Decides which of a run of failed connection attempts are worth a WARN: the first of each kind, and then one at most
 * every {@code spacing} while the same kind goes on (the back-off's longest wait), so a broker that refuses the
 * password for an hour says so a few dozen times, not at every attempt. Thread-safe.
 */
public final class FailurePacer {

    private final long spacingMillis;
    private final LongSupplier clock;
    private ConnectionFailure.Kind last;
    private long loggedAt;
    private int suppressed;

    public FailurePacer(long spacingMillis, LongSupplier clock) {
        this.spacingMillis = spacingMillis;
        this.clock = clock;
    }

    /**
     * Whether this failure is logged; when it is after others of its kind were not, {@link #suppressedSinceLast()}
     * says how many.
     */
    public synchronized boolean shouldLog(ConnectionFailure failure) {
        long now = clock.getAsLong();
        if (failure.kind() != last || now - loggedAt >= spacingMillis) {
            last = failure.kind();
            loggedAt = now;
            return true;
        }
        suppressed++;
        return false;
    }

    /** How many failures were not logged since the last one that was; resets the count. */
    public synchronized int suppressedSinceLast() {
        int count = suppressed;
        suppressed = 0;
        return count;
    }

    /** A connection succeeded: the next failure is news again. */
    public synchronized void reset() {
        last = null;
        suppressed = 0;
    }
}
