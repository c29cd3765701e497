package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import com.rabbitmq.client.RecoveryDelayHandler;

/**
 * Bounded exponential back-off with jitter, for reconnecting and for subscribing again: the first attempt waits
 * {@code initial}, each next one twice as long up to {@code max}, and each wait is moved by up to {@code jitter} (a
 * fraction) either way, so many instances cut off by one broker restart do not all come back in the same instant.
 */
public final class Backoff implements RecoveryDelayHandler {

    private final long initialMillis;
    private final long maxMillis;
    private final double jitter;

    public Backoff(Duration initial, Duration max, double jitter) {
        this.initialMillis = Math.max(1, initial.toMillis());
        this.maxMillis = Math.max(initialMillis, max.toMillis());
        this.jitter = Math.max(0, Math.min(1, jitter));
    }

    /** The wait before attempt {@code attempt} (1 for the first), jitter included. */
    @Override
    public long getDelay(int attempt) {
        long base = withoutJitter(attempt);
        if (jitter == 0) {
            return base;
        }
        double factor = 1 + jitter * (2 * ThreadLocalRandom.current().nextDouble() - 1);
        return Math.max(1, Math.round(base * factor));
    }

    /** The wait before attempt {@code attempt}, before jitter. */
    public long withoutJitter(int attempt) {
        int doublings = Math.max(0, Math.min(attempt - 1, 30));
        long delay = initialMillis << doublings;
        return delay <= 0 || delay > maxMillis ? maxMillis : delay;
    }

    public String describe() {
        return "every " + initialMillis + " ms at first, doubling up to " + maxMillis + " ms"
                + (jitter > 0 ? " (±" + Math.round(jitter * 100) + "%)" : "");
    }
}
