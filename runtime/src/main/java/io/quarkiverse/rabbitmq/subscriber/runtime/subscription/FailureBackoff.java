package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.time.Duration;

/**
 * A subscription's back-off for failures ({@code @Subscriber(backoff = @Backoff(...))}): how long the delivery after a
 * failed one waits. The wait after the first delivery is {@code initial}, each later one {@code multiplier} times the
 * one before, at most {@code max}: with 1 s, 2 and 1 m, attempts 2, 3, 4, ... come 1 s, 2 s, 4 s, ... 32 s, 1 m, 1 m
 * after the failure before them.
 *
 * @param initialMillis the first wait; 0: no back-off
 * @param maxMillis the longest wait; 0: none but the arithmetic's (a wait never overflows)
 */
public record FailureBackoff(long initialMillis, double multiplier, long maxMillis) {

    public static final FailureBackoff NONE = new FailureBackoff(0, 2, 0);

    public boolean waits() {
        return initialMillis > 0;
    }

    /**
     * The wait before the next delivery, after delivery number {@code attempt} (1 for the first) failed; zero without a
     * back-off.
     */
    public Duration after(int attempt) {
        if (!waits()) {
            return Duration.ZERO;
        }
        double wait = initialMillis * Math.pow(multiplier, Math.max(0, attempt - 1));
        long bound = maxMillis > 0 ? maxMillis : Long.MAX_VALUE / 2;
        return Duration.ofMillis(wait >= bound || Double.isNaN(wait) ? bound : Math.max(1, (long) wait));
    }

    @Override
    public String toString() {
        return waits()
                ? "back-off " + DelayLabel.of(initialMillis) + " x" + multiplier
                        + (maxMillis > 0 ? " up to " + DelayLabel.of(maxMillis) : "")
                : "no back-off";
    }
}
