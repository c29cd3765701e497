package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import java.time.Duration;

import io.quarkiverse.rabbitmq.subscriber.runtime.connection.Backoff;

/**
 * How long a subscriber waits after the broker refused it (a permission it lacks, something it sent): a refusal comes
 * again at every try, each running a handler again on a redelivered message, so refusals in a row (each within two
 * longest waits of the last) wait ever longer, up to the back-off's longest. Lane only.
 */
final class RefusalPacing {

    private final Backoff backoff;
    private int inARow;
    private long last;

    RefusalPacing(Backoff backoff) {
        this.backoff = backoff;
    }

    /** A refusal at {@code now}: the wait before the next try. */
    Duration next(long now) {
        inARow = inARow > 0 && now - last <= 2 * longest() ? inARow + 1 : 1;
        last = now;
        return Duration.ofMillis(backoff.getDelay(inARow));
    }

    /** Refusals in a row, the latest included. */
    int inARow() {
        return inARow;
    }

    /** The longest wait. */
    long longest() {
        return backoff.withoutJitter(Integer.MAX_VALUE);
    }
}
