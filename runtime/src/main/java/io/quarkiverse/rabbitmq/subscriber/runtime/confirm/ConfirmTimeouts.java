package io.quarkiverse.rabbitmq.subscriber.runtime.confirm;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * Tells the publishes of a {@link ConfirmedChannel} that waited longer than the timeout for an answer
 * ({@link PublishOutcome.Kind#TIMED_OUT}), sweeping on the runtime's clock every half timeout while any waits. While
 * RabbitMQ blocks the connection (a memory or disk alarm) nothing times out: no confirm can come before the alarm
 * clears, and a caller that gave up now would only publish again what is on its way.
 */
public final class ConfirmTimeouts {

    private final ConfirmedChannel channel;
    private final Clock clock;
    private final Executor on;
    private final long timeoutMillis;
    private final BooleanSupplier blocked;
    /** Touched on {@code on} only. */
    private boolean sweepScheduled;

    /**
     * @param on where the sweep runs and tells (the channel's {@code answers})
     * @param blocked whether RabbitMQ blocks the channel's connection now
     */
    public ConfirmTimeouts(ConfirmedChannel channel, Clock clock, Executor on, Duration timeout,
            BooleanSupplier blocked) {
        this.channel = channel;
        this.clock = clock;
        this.on = on;
        this.timeoutMillis = timeout.toMillis();
        this.blocked = blocked;
    }

    /** When a publish is followed, on the caller's clock: the moment to give {@link ConfirmedChannel#publish}. */
    public long now() {
        return clock.millis();
    }

    /** A publish is followed now: a sweep is due within half the timeout. Called where the sweep runs. */
    public void followed() {
        if (!sweepScheduled) {
            sweepScheduled = true;
            clock.schedule(Duration.ofMillis(Math.max(1, timeoutMillis / 2)), () -> on.execute(this::sweep));
        }
    }

    private void sweep() {
        sweepScheduled = false;
        if (!blocked.getAsBoolean()) {
            for (Consumer<PublishOutcome> late : channel.publishedBefore(clock.millis() - timeoutMillis + 1)) {
                late.accept(PublishOutcome.TIMED_OUT);
            }
        }
        if (!channel.isEmpty()) {
            followed();
        }
    }

    public long timeoutMillis() {
        return timeoutMillis;
    }
}
