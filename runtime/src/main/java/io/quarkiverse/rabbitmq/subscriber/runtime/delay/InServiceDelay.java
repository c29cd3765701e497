package io.quarkiverse.rabbitmq.subscriber.runtime.delay;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.HeldCopies;

/**
 * The {@code IN_SERVICE} delay: the service holds the copy of a message and publishes it back to its queue once the
 * delay has passed on the runtime's clock. At most once across a crash; a graceful stop publishes every pending copy at
 * once, so a clean restart loses nothing.
 * <p>
 * The original was acked when the copy was taken in, so nothing else would bring the message back: a copy is
 * published through the runtime's confirmed publish ({@code mandatory}, on the publishing connection) and held until
 * RabbitMQ confirms it. A copy written into a connection that then dies (a stall, a reset), or nacked, returned or not
 * confirmed in time, is published again a second later, until the connection is back. Duplicates are possible, losses
 * are not (short of a crash). The held copies belong to the subscription, not to a channel: a resubscription or a
 * reconnection keeps them. A copy RabbitMQ refuses for good (a precondition it fails as it is, or refused
 * {@value #REFUSALS_FOR_GOOD} times in a row) goes to the dead-letter queue, or {@code <queue>.parked}
 * ({@link RefusedCopyParking}).
 */
public final class InServiceDelay implements HeldCopies {

    private static final Logger LOG = Logger.getLogger(InServiceDelay.class);

    /** A copy whose publish failed is tried again this much later. */
    private static final Duration RETRY_PUBLISH = Duration.ofSeconds(1);
    /** The least time between two WARNs that the bound is reached. */
    private static final Duration WARN_SPACING = Duration.ofMinutes(10);
    /** The longest wait between two tries of a copy RabbitMQ refuses (a permission the user lacks). */
    private static final Duration MAX_REFUSED_WAIT = Duration.ofSeconds(30);
    /**
     * How many refusals in a row (a nack, a return, a permission, a precondition) make a copy refused for good, when
     * RabbitMQ does not say so at once (a precondition it fails as it is, such as its size): about 7 s of tries.
     */
    static final int REFUSALS_FOR_GOOD = 3;
    /** On a graceful stop, how long to wait for the confirms of the copies published then. */
    private static final long STOP_CONFIRM_WAIT_MILLIS = 5_000;

    private final String queue;
    private final Clock clock;
    private final ConfirmedPublish publisher;
    /** Where a copy RabbitMQ refuses for good goes: the dead-letter queue, or {@code <queue>.parked}. */
    private final RefusedCopyParking parking;
    /**
     * Guards {@code pending} and {@code released} only; {@code unconfirmed} is a concurrent set of its own, changed
     * without it (confirms complete on other threads). Nothing notifies it: {@link #releaseAll}'s wait on it is a 20 ms
     * poll.
     */
    private final Object lock = new Object();
    private final Set<PendingCopy> pending = new LinkedHashSet<>();
    /** Published, not confirmed yet. */
    private final Set<PendingCopy> unconfirmed = ConcurrentHashMap.newKeySet();
    /** After a graceful stop released the copies, new ones go out at once: no timer outlives the stop. */
    private boolean released;
    /** Copies that failed while stopping: lost, each with an ERROR. */
    private final java.util.concurrent.atomic.AtomicInteger lostAtStop = new java.util.concurrent.atomic.AtomicInteger();
    /** Refused publishes since the last one that got through; under the lock. */
    private int refusedInARow;
    /** Copies the parking queue refused too since the last that got through anywhere: one ERROR per run; under the lock. */
    private int parkingRefusedInARow;
    private final HeldBound bound;
    private final io.quarkiverse.rabbitmq.subscriber.runtime.flow.BackPressure pressure;
    /** The bodies' bytes of the copies in {@code pending} and {@code unconfirmed}; under the lock. */
    private long heldBytes;
    /** Whether the bound was reached and the subscriber told to stop taking deliveries; under the lock. */
    private boolean full;
    /** When the bound's last WARN was (clock millis; 0: never): a subscriber at its bound for long crosses it often. */
    private long warnedAt;
    /** Whether the latest crossing was a WARN, so its end is an INFO too; under the lock. */
    private boolean warned;

    /**
     * @param bound how much it may hold
     * @param pressure told when the bound is reached (the subscriber stops taking deliveries) and when half of it is
     *        free again
     */
    public InServiceDelay(String queue, Clock clock, ConfirmedPublish publisher, HeldBound bound,
            io.quarkiverse.rabbitmq.subscriber.runtime.flow.BackPressure pressure, RefusedCopyParking parking) {
        this.parking = parking;
        this.queue = queue;
        this.clock = clock;
        this.publisher = publisher;
        this.bound = bound;
        this.pressure = pressure;
    }

    /**
     * A copy comes in (its body counts until it is confirmed), before it is held; tells the subscriber when the bound
     * is reached.
     */
    private void taken(PendingCopy copy) {
        String why = null;
        boolean warn = false;
        synchronized (lock) {
            heldBytes += copy.body.length;
            int held = pending.size() + unconfirmed.size() + 1;
            if (!full && bound.reached(held, heldBytes)) {
                full = true;
                why = held + " copies of " + heldBytes + " bytes held for their delay (quarkus.rabbitmq-subscriber."
                        + "in-service.max-held=" + bound.maxHeld() + ", max-held-bytes=" + bound.maxHeldBytes() + ")";
                long now = clock.millis();
                warn = warnedAt == 0 || now - warnedAt >= WARN_SPACING.toMillis();
                if (warn) {
                    warnedAt = now;
                }
                warned = warn;
            }
        }
        if (why != null) {
            if (warn) {
                LOG.warnf("Queue '%s' stops taking deliveries: %s. It takes them again once half of that is published "
                        + "back; deliveries wait in RabbitMQ meanwhile (at most one such WARN per %s). To keep a long "
                        + "backlog of delays in RabbitMQ instead, use delay = DLX_TTL", queue, why, WARN_SPACING);
            } else {
                LOG.debugf("Queue '%s' stops taking deliveries again: %s", queue, why);
            }
            pressure.full();
        }
    }

    /** A copy is confirmed (or given up): its bytes no longer count; tells the subscriber when there is room again. */
    private void gone(PendingCopy copy) {
        boolean room = false;
        boolean say = false;
        synchronized (lock) {
            heldBytes -= copy.body.length;
            if (full && bound.relieved(pending.size() + unconfirmed.size(), heldBytes)) {
                full = false;
                room = true;
                say = warned;
            }
        }
        if (room) {
            if (say) {
                LOG.infof("Queue '%s' takes deliveries again: its held copies are down to half the bound", queue);
            } else {
                LOG.debugf("Queue '%s' takes deliveries again", queue);
            }
            pressure.room();
        }
    }

    private static final class PendingCopy {
        final AMQP.BasicProperties properties;
        final byte[] body;
        final String messageId;
        Clock.Timer timer;
        /** RabbitMQ's refusals of this copy in a row; under the lock. */
        int refusals;

        PendingCopy(AMQP.BasicProperties properties, byte[] body, String messageId) {
            this.properties = properties;
            this.body = body;
            this.messageId = messageId;
        }
    }

    /** How many copies wait, to be published or confirmed. */
    public int pending() {
        synchronized (lock) {
            return pending.size() + unconfirmed.size();
        }
    }

    /** Holds a copy ({@code messageId} names it in logs) for {@code delay}; call before the original is acked. */
    @Override
    public void hold(AMQP.BasicProperties properties, byte[] body, String messageId, Duration delay) {
        PendingCopy copy = new PendingCopy(properties, body, messageId);
        // Counted before it is held, so a copy due at once (published and confirmed at once) never counts below zero.
        taken(copy);
        hold(copy, delay.toMillis());
    }

    private void hold(PendingCopy copy, long wait) {
        synchronized (lock) {
            // Due already: the copy goes now, without a timer a paused clock would hold.
            if (!released && wait > 0) {
                pending.add(copy);
                copy.timer = clock.schedule(Duration.ofMillis(wait), () -> release(copy));
                return;
            }
        }
        publish(copy);
    }

    /** A copy is due: publish it (on the clock's thread). */
    private void release(PendingCopy copy) {
        synchronized (lock) {
            if (!pending.remove(copy)) {
                return;
            }
        }
        publish(copy);
    }

    private void publish(PendingCopy copy) {
        unconfirmed.add(copy);
        publisher.publish("", queue, copy.properties, copy.body).whenComplete((confirmed, failure) -> {
            unconfirmed.remove(copy);
            if (failure != null) {
                failed(copy, failure);
            } else {
                synchronized (lock) {
                    refusedInARow = 0;
                    parkingRefusedInARow = 0;
                }
                gone(copy);
            }
        });
    }

    /** Its original was acked: while the service runs, a copy that did not get through is tried again, not dropped. */
    private void failed(PendingCopy copy, Throwable failure) {
        String why = String.valueOf(failure.getMessage());
        boolean refused = why.contains("ACCESS_REFUSED") || why.contains("PRECONDITION_FAILED")
                || why.contains("nacked") || why.contains("unroutable");
        boolean forGood;
        synchronized (lock) {
            forGood = !released && refused && parking != null
                    && (why.contains("PRECONDITION_FAILED") || ++copy.refusals >= REFUSALS_FOR_GOOD);
        }
        if (forGood) {
            // Refused for good: kept held, it would be tried until the stop, and lost then. Outside the lock: the
            // parking queue's declaration waits for the broker.
            park(copy, why.contains("PRECONDITION_FAILED") ? why : why + ", " + REFUSALS_FOR_GOOD + " times in a row");
            return;
        }
        synchronized (lock) {
            if (!released) {
                if (why.contains("ACCESS_REFUSED") || why.contains("PRECONDITION_FAILED")) {
                    // A permission the user lacks, or a copy RabbitMQ refuses as it is: refused again at every try
                    // until an operator acts. One ERROR per run of refusals, and each retry waits twice as long, up to
                    // 30 s. The copies' channel is theirs alone: the application's own sends go on meanwhile.
                    refusedInARow++;
                    long wait = Math.min(MAX_REFUSED_WAIT.toMillis(),
                            RETRY_PUBLISH.toMillis() << Math.min(refusedInARow - 1, 16));
                    if (refusedInARow == 1) {
                        LOG.errorf("RabbitMQ refuses the delayed copies to queue '%s' (%s): %s. They stay held in the "
                                + "service and are tried again with a growing wait, up to %s; no further ERROR while "
                                + "they are refused", queue, why,
                                why.contains("ACCESS_REFUSED")
                                        ? "the user needs the write permission on the default exchange (amq.default; "
                                                + "the Security page lists what each mode needs)"
                                        : "the reason names what it refuses",
                                MAX_REFUSED_WAIT);
                    } else {
                        LOG.debugf("The delayed copy of %s to queue '%s' is still refused; trying again in %d ms",
                                copy.messageId, queue, wait);
                    }
                    hold(copy, wait);
                    return;
                }
                // Mostly a connection being recovered: the retries are quiet; they end when it is back.
                LOG.debugf("The delayed copy of %s to queue '%s' did not get through (%s); trying again in %s",
                        copy.messageId, queue, failure.getMessage(), RETRY_PUBLISH);
                hold(copy, RETRY_PUBLISH.toMillis());
                return;
            }
        }
        LOG.errorf("Could not publish the delayed copy of %s back to queue '%s' while stopping (%s): the copy is lost",
                copy.messageId, queue, failure.getMessage());
        lostAtStop.incrementAndGet();
        gone(copy);
    }

    /**
     * Sends a copy RabbitMQ refuses for good to the dead-letter (or parking) queue, with an ERROR naming it; one that
     * cannot go there either stays held and is tried again later, as a refused copy is.
     */
    private void park(PendingCopy copy, String why) {
        unconfirmed.add(copy);
        parking.park(copy.properties, copy.body, "RabbitMQ refused the delayed copy to queue '" + queue + "': " + why)
                .whenComplete((confirmed, failure) -> {
                    unconfirmed.remove(copy);
                    if (failure == null) {
                        synchronized (lock) {
                            parkingRefusedInARow = 0;
                        }
                        LOG.errorf("RabbitMQ refuses the delayed copy of %s to queue '%s' (%s): it went to queue '%s' "
                                + "instead (DeadLetters.replay sends it back)", copy.messageId, queue, why,
                                parking.where());
                        gone(copy);
                        return;
                    }
                    synchronized (lock) {
                        if (!released) {
                            if (parkingRefusedInARow++ == 0) {
                                LOG.errorf("RabbitMQ refuses the delayed copy of %s to queue '%s' (%s), and queue '%s' "
                                        + "too (%s): it stays held in the service and is tried again every %s; no "
                                        + "further ERROR while both refuse", copy.messageId, queue, why, parking.where(),
                                        failure.getMessage(), MAX_REFUSED_WAIT);
                            } else {
                                LOG.debugf("The delayed copy of %s is still refused by queues '%s' and '%s'",
                                        copy.messageId, queue, parking.where());
                            }
                            copy.refusals = 0;
                            hold(copy, MAX_REFUSED_WAIT.toMillis());
                            return;
                        }
                    }
                    LOG.errorf("Could not publish the delayed copy of %s back to queue '%s' (%s) nor to queue '%s' (%s) "
                            + "while stopping: the copy is lost", copy.messageId, queue, why, parking.where(),
                            failure.getMessage());
                    lostAtStop.incrementAndGet();
                    gone(copy);
                });
    }

    /** On a graceful stop: publishes every copy still waiting, now, and waits a little for their confirms. */
    public void releaseAll() {
        Set<PendingCopy> copies;
        synchronized (lock) {
            released = true;
            copies = new LinkedHashSet<>(pending);
            pending.clear();
        }
        for (PendingCopy copy : copies) {
            copy.timer.cancel();
            publish(copy);
        }
        long deadline = clock.nanos() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(STOP_CONFIRM_WAIT_MILLIS);
        // A poll: nothing calls notify when a confirm empties unconfirmed, so wait(20) only paces a check every 20 ms.
        synchronized (lock) {
            while (!unconfirmed.isEmpty() && clock.nanos() - deadline < 0) {
                try {
                    lock.wait(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        if (!copies.isEmpty()) {
            int left = unconfirmed.size();
            int lost = lostAtStop.get();
            LOG.infof("Published %d of %d delayed copy(ies) back to queue '%s' early, on shutdown%s%s",
                    Math.max(0, copies.size() - left - lost), copies.size(), queue,
                    left > 0 ? "; " + left + " not confirmed by RabbitMQ in time" : "",
                    lost > 0 ? "; " + lost + " lost (see the ERRORs above)" : "");
        }
    }
}
