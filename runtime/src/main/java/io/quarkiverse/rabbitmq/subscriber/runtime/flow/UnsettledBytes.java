package io.quarkiverse.rabbitmq.subscriber.runtime.flow;

import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * The body bytes one subscription has received and not yet settled ({@code quarkus.rabbitmq-subscriber
 * .max-unsettled-bytes}), and the prefetch it consumes with. RabbitMQ sends up to a prefetch of messages whatever their
 * size (250 x 128 MiB at the defaults), so the prefetch alone bounds nothing in bytes. At the bound the subscriber stops
 * taking deliveries (back-pressure, never a closed connection); once half of it is settled it consumes again, with the
 * prefetch cut to what the bound holds of the largest body seen since it last consumed, so the next crossing overshoots
 * by at most the bound. While bodies stay small the prefetch grows back to the configured one, one resubscription at a
 * time. The first crossing can overshoot by a prefetch of messages: nothing is known of their size before they arrive.
 * <p>
 * Kept with the subscription, not a channel: deliveries of a closed channel still settle and count down here. Updated
 * from the subscriber's event loops, so its counters are atomic.
 */
public final class UnsettledBytes {

    private static final Logger LOG = Logger.getLogger(UnsettledBytes.class);
    /** At most one WARN per this long; later crossings are DEBUG. */
    private static final long WARN_SPACING_NANOS = java.util.concurrent.TimeUnit.MINUTES.toNanos(10);

    private final String queue;
    private final long bound;
    private final int configuredPrefetch;
    private final BackPressure pressure;
    private final AtomicLong bytes = new AtomicLong();
    /** The largest body received since the subscriber last consumed again. */
    private volatile int largest;
    /** Deliveries received since the prefetch last changed. */
    private final AtomicLong takenAtThisPrefetch = new AtomicLong();
    /** Deliveries received, and settled (or given back), over the subscription's whole run: the stall watch reads them. */
    private final AtomicLong taken = new AtomicLong();
    private final AtomicLong released = new AtomicLong();
    private volatile int prefetch;
    private volatile boolean full;
    private volatile long lastWarned;
    /** What the WARN's spacing reads. */
    private final Clock clock;

    /**
     * @param bound the most body bytes unsettled at once
     * @param configuredPrefetch the subscription's prefetch, which this never exceeds (0: unlimited, kept as it is)
     */
    public UnsettledBytes(String queue, long bound, int configuredPrefetch, BackPressure pressure, Clock clock) {
        this.clock = clock;
        this.lastWarned = clock.nanos() - WARN_SPACING_NANOS;
        this.queue = queue;
        this.bound = Math.max(1, bound);
        this.configuredPrefetch = configuredPrefetch;
        this.pressure = pressure;
        this.prefetch = configuredPrefetch;
    }

    /** The prefetch to consume with now. */
    public int prefetch() {
        return prefetch;
    }

    /** How many body bytes are unsettled now. */
    public long bytes() {
        return bytes.get();
    }

    /** How many deliveries it received over its whole run. */
    public long takenCount() {
        return taken.get();
    }

    /** How many deliveries it received and has not settled (nor given back with their channel) now. */
    public long unsettledCount() {
        return taken.get() - released.get();
    }

    /** A delivery arrived. */
    public void taken(int size) {
        if (size > largest) {
            largest = size;
        }
        taken.incrementAndGet();
        takenAtThisPrefetch.incrementAndGet();
        long now = bytes.addAndGet(size);
        if (now >= bound && !full) {
            full = true;
            long at = clock.nanos();
            if (at - lastWarned >= WARN_SPACING_NANOS) {
                lastWarned = at;
                LOG.warnf("Queue '%s' stops taking deliveries: %d bytes of message bodies are unsettled "
                        + "(quarkus.rabbitmq-subscriber.max-unsettled-bytes=%d). It takes them again once half of that is "
                        + "settled, with a prefetch sized from the largest body seen (%d bytes); deliveries wait in "
                        + "RabbitMQ meanwhile (at most one such WARN per 10 minutes)", queue, now, bound, largest);
            } else {
                LOG.debugf("Queue '%s' stops taking deliveries again: %d bytes unsettled", queue, now);
            }
            pressure.full();
        }
    }

    /** A delivery was settled (or given back to the broker with its channel). */
    public void released(int size) {
        released.incrementAndGet();
        long now = bytes.addAndGet(-size);
        if (full) {
            if (now <= bound / 2) {
                full = false;
                resize(sized());
                pressure.room();
            }
            return;
        }
        // Bodies stayed small at a cut prefetch: consume again with a larger one (a pause and a consume, on the
        // supervisor's lane, which handles what is in flight meanwhile).
        int current = prefetch;
        if (configuredPrefetch > 0 && current < configuredPrefetch
                && takenAtThisPrefetch.get() >= 4L * current) {
            int grown = sized();
            if (grown >= 2 * current) {
                resize(grown);
                pressure.full();
                pressure.room();
            }
        }
    }

    /** The prefetch the bound holds of the largest body seen, within 1 and the configured prefetch. */
    private int sized() {
        long fits = bound / Math.max(1, largest);
        int cap = configuredPrefetch > 0 ? configuredPrefetch : Integer.MAX_VALUE;
        return (int) Math.max(1, Math.min(cap, fits));
    }

    private void resize(int next) {
        if (configuredPrefetch <= 0) {
            // Unlimited by configuration: a bound on bytes then only pauses.
            return;
        }
        if (next != prefetch) {
            LOG.debugf("Queue '%s' consumes with a prefetch of %d (largest body %d bytes, bound %d)", queue, next,
                    largest, bound);
        }
        prefetch = next;
        largest = 0;
        takenAtThisPrefetch.set(0);
    }
}
