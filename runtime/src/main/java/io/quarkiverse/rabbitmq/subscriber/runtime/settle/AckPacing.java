package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * When the acks waiting in a subscriber's window leave: at once after a quiet spell, otherwise gathered into fewer
 * {@code basic.ack multiple=true} frames.
 * <p>
 * Every ack frame costs the broker work of its own, and with the broker on its own core that core is what limits a
 * drain. Measured here (pinned, 100,000 persistent messages, prefetch 1000): PerfTest acking every 15 messages cost
 * RabbitMQ 39-53 µs of CPU per message and drained 8-20% fewer per second than acking every 100 (36-42 µs). Sending
 * one frame for each burst the event loop handled gave 13-30 acks per frame.
 * <p>
 * So the acks leave at once when the last frame left at least {@link #QUIET_NANOS} ago (a trickle of messages is
 * acked as soon as each is handled, as before), when a quarter of the prefetch waits, or when half the prefetch is
 * unsent (the broker must not run short of credit: it sends no more than the prefetch unacknowledged). Otherwise they
 * wait until {@link #QUIET_NANOS} after the last frame, joined by those that come meanwhile. An ack is thus held at
 * most that long, only while acks are flowing, and never while the broker waits for one to send more.
 * <p>
 * Only used on the subscriber's event loop, but for {@link #atOnce}.
 */
final class AckPacing {

    /** How long after a frame acks may wait for others to join them. */
    static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** Waiting acks that leave at once when the prefetch is unlimited (0). */
    static final int UNLIMITED_BATCH = 100;

    private final IntSupplier prefetch;
    private long lastSent = Long.MIN_VALUE;

    /** @param prefetch the prefetch the subscriber consumes with now (a bound on bytes may cut it; 0: unlimited) */
    AckPacing(IntSupplier prefetch) {
        this.prefetch = prefetch;
    }

    /**
     * How long the waiting acks should wait for more, in nanoseconds from {@code now}; 0 to send them now.
     *
     * @param waiting acks waiting to be sent
     * @param unsent deliveries the broker counts as unacknowledged (or more), waiting acks included
     */
    long delay(int waiting, int unsent, long now) {
        if (waiting == 0 || lastSent == Long.MIN_VALUE || now - lastSent >= QUIET_NANOS || atOnce(waiting, unsent)) {
            return 0;
        }
        return QUIET_NANOS - (now - lastSent);
    }

    /**
     * Whether so many waiting acks leave at once however recently a frame left: a quarter of the prefetch, or half of
     * it unacknowledged. Any thread (the prefetch is read as it is now).
     */
    boolean atOnce(int waiting, int unsent) {
        int limit = prefetch.getAsInt();
        return limit <= 0 ? waiting >= UNLIMITED_BATCH : waiting >= Math.max(1, limit / 4) || unsent >= limit / 2;
    }

    /** A frame left at {@code now}. */
    void sent(long now) {
        lastSent = now;
    }
}
