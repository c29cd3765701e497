package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.Backoff;

/**
 * One subscriber's life on the broker, as explicit states: {@link State#CONSUMING}, {@link State#RECOVERING} (the
 * connection is down, or the broker cancelled its consumer or closed its channel) and {@link State#STOPPED}.
 * <p>
 * Every step that talks to the broker after startup (consume again once the connection is back, subscribe again on a
 * fresh channel after the broker stopped the consumer, with back-off) runs on the subscriber's own {@link SerialLane}:
 * steps never overlap, so no lock is held while waiting for RabbitMQ, and the client's threads that report a cut or a
 * cancellation only queue a step. A loss is one ERROR (a cut: the engine's one WARN); retries after it are WARNs spaced
 * by the back-off.
 */
public final class SubscriberSupervisor {

    private static final Logger LOG = Logger.getLogger(SubscriberSupervisor.class);

    public enum State {
        STARTING,
        CONSUMING,
        RECOVERING,
        STOPPED
    }

    private final String subscriber;
    private final String queue;
    private final Subscribing subscribing;
    private final Backoff backoff;
    private final Clock clock;
    private final SerialLane lane;

    private final AtomicReference<State> state = new AtomicReference<>(State.STARTING);
    /** Why it does not consume, while it does not. */
    private volatile String why = "starting";
    /** Why it stopped for good before the application stopped (see {@link #halt}); null otherwise. */
    private volatile String halted;
    private volatile Attachment attachment;
    /** Counts attachments: a loss reported by an earlier one is old news. */
    private volatile long generation;
    /** Failed attempts since the last loss; lane only. */
    private int attempts;
    /** Counts scheduled attempts: only the latest may run. Lane only (the timer's task runs on the lane). */
    private long scheduled;
    /** The broker stopped the consumer: it subscribes again on a fresh channel, not on the recovered one. Lane only. */
    private boolean needsFreshChannel;
    /** What holds it back from taking deliveries while consuming, for any thread; the lane keeps its own copy. */
    private final HoldBacks holdBacks;
    /** What holds it back, as the lane has seen the changes so far. Lane only. */
    private final java.util.Set<String> heldBack = new java.util.HashSet<>();
    private final RefusalPacing refusals;
    private final PartitionClaim claim = new PartitionClaim();

    /**
     * @param subscriber the handler method, for logs
     * @param pool where the supervision steps run (a worker pool: they wait for the broker)
     * @param holdBacks what holds it back (made before it, with the parts that hold it back)
     */
    public SubscriberSupervisor(String subscriber, String queue, Subscribing subscribing, Backoff backoff, Clock clock,
            Executor pool, HoldBacks holdBacks) {
        this.subscriber = subscriber;
        this.queue = queue;
        this.subscribing = subscribing;
        this.backoff = backoff;
        this.clock = clock;
        this.lane = new SerialLane(pool);
        this.holdBacks = holdBacks;
        this.refusals = new RefusalPacing(backoff);
        holdBacks.reactWith((what, held) -> lane.execute(held ? () -> holdBackOnLane(what) : () -> takeAgainOnLane(what)));
    }

    /** With nothing but its own pause (tests). */
    public SubscriberSupervisor(String subscriber, String queue, Subscribing subscribing, Backoff backoff, Clock clock,
            Executor pool) {
        this(subscriber, queue, subscribing, backoff, clock, pool, new HoldBacks());
    }

    public String queue() {
        return queue;
    }

    public State state() {
        return state.get();
    }

    /** Whether none of its steps (consume again, hold back, take again) waits or runs now. Any thread. */
    public boolean idle() {
        return lane.idle();
    }

    /** What holds it back from taking deliveries. */
    public HoldBacks holdBacks() {
        return holdBacks;
    }

    /** Whether the application or its kill switch paused it ({@link HoldBacks#paused}). Any thread. */
    public boolean paused() {
        return holdBacks.paused();
    }

    /** Why it does not consume now; null while it does. */
    public String notConsumingBecause() {
        State now = state.get();
        return now == State.CONSUMING ? null : now == State.STOPPED ? (halted != null ? halted : "stopped") : why;
    }

    /** Subscribes for the first time, on the caller's thread: a failure fails the application's startup. */
    public void start(BrokerConnection connection) throws Exception {
        long next = ++generation;
        attachment = subscribing.attach(connection, this, next);
        why = null;
        state.compareAndSet(State.STARTING, State.CONSUMING);
    }

    /** The broker stopped attachment {@code generation}'s consumer (a cancel, or its channel closed). Any thread. */
    public void lost(long generation, String reason) {
        lane.execute(() -> {
            if (generation != this.generation || !recovering(reason)) {
                return;
            }
            needsFreshChannel = true;
            attempts = 0;
            if (reason.contains("ACCESS_REFUSED") || reason.contains("PRECONDITION_FAILED")) {
                refused(reason);
                return;
            }
            subscribeAfter(reason.equals(ServerCancel.CANCELLED) ? ServerCancel.explain(subscribing::connection, queue)
                    : reason);
        });
    }

    /** It stopped consuming for this reason: one ERROR, then a fresh subscription after the back-off. Lane only. */
    private void subscribeAfter(String reason) {
        Duration wait = delay();
        LOG.errorf("%s stopped consuming queue '%s': %s. Subscribing again in %d ms, then with back-off", subscriber,
                queue, reason, wait.toMillis());
        scheduleAttempt(wait);
    }

    /**
     * The broker closed the channel for a permission the user lacks (a copy it may not publish, a queue it may not
     * read) or refused what was sent (PRECONDITION_FAILED): it would refuse again at every try, each running a handler
     * again on a redelivered message. So refusals in a row (each within two longest waits of the last) wait ever
     * longer, up to the longest; only the first is an ERROR. Lane only.
     */
    private void refused(String reason) {
        Duration wait = refusals.next(clock.millis());
        boolean permission = reason.contains("ACCESS_REFUSED");
        if (refusals.inARow() == 1) {
            LOG.errorf("%s stopped consuming queue '%s': RabbitMQ refused %s (%s). It would refuse again at each try: "
                    + "%s. Subscribing again in %d ms, then with a growing wait up to %d ms; no further ERROR while it "
                    + "is refused", subscriber, queue, permission ? "a permission" : "what the subscriber sent", reason,
                    permission ? "grant the permission (the Security page lists what each mode needs)" : "see why",
                    wait.toMillis(), refusals.longest());
        } else {
            LOG.debugf("%s: RabbitMQ refused again (%d in a row); subscribing again in %d ms", subscriber,
                    refusals.inARow(), wait.toMillis());
        }
        scheduleAttempt(wait);
    }

    /**
     * The broker closed the channel of attachment {@code generation}'s copies (a refused publish): its delivery channel
     * is still open, so it stops taking deliveries at once (what it holds still settles), then subscribes again as
     * after any {@link #lost loss}. Any thread.
     */
    public void copiesLost(long generation, String reason) {
        lane.execute(() -> {
            Attachment current = attachment;
            if (generation == this.generation && current != null) {
                current.pause();
            }
        });
        lost(generation, reason);
    }

    /** The connection is cut: amqp-client reconnects; say so until it is back ({@link Attachment#connectionLost}). */
    public void connectionLost(String reason) {
        lane.execute(() -> {
            if (state.get() == State.CONSUMING && attachment != null) {
                recovering("the connection is down (" + reason + ")");
                attachment.connectionLost();
            }
        });
    }

    /**
     * amqp-client reopened the connection and this subscriber's channel, with no consumer on it (whatever state the
     * subscriber thought it was in): declare (or check) the queues again, since a restarted broker may have lost them,
     * and consume again on the same channel.
     */
    public void connectionRecovered() {
        lane.execute(() -> {
            if (state.get() == State.STOPPED || attachment == null) {
                return;
            }
            recovering(why != null ? why : "the connection was recovered");
            if (!needsFreshChannel) {
                try {
                    BrokerConnection connection = subscribing.connection();
                    subscribing.prepareQueues(connection);
                    attachment.consumeAgain(queue);
                    consuming();
                    return;
                } catch (Exception e) {
                    // The channel did not come back usable: start over on a fresh one.
                    needsFreshChannel = true;
                    attempts = 0;
                    why = "consuming again after the connection came back failed: " + describe(e);
                    subscribeAfter(why);
                    return;
                }
            }
            // Waiting for a fresh subscription: try now that the connection is back.
            attempt();
        });
    }

    /**
     * Stops this subscriber for good, for this reason (readiness reports it), and cancels its consumer; then runs
     * {@code then}. For a message that must stay in its queue: rejected with requeue only once no consumer of this
     * application would take it again. Any thread; the caller logs why. A second call only runs {@code then}.
     */
    public void halt(String reason, Runnable then) {
        lane.execute(() -> {
            if (state.get() != State.STOPPED) {
                halted = reason;
                state.set(State.STOPPED);
                Attachment current = attachment;
                if (current != null) {
                    current.cancel();
                }
            }
            then.run();
        });
    }

    /**
     * Back-pressure ({@link HoldBacks}): its consumer is cancelled; what is in flight settles, the rest waits in
     * RabbitMQ, until nothing holds it back. Readiness stays UP: the service works, at the pace it can. A subscription
     * again after a loss stays held back too.
     */
    private void holdBackOnLane(String what) {
        boolean first = heldBack.isEmpty();
        heldBack.add(what);
        Attachment current = attachment;
        if (first && state.get() == State.CONSUMING && current != null) {
            current.pause();
        }
    }

    private void takeAgainOnLane(String what) {
        if (!heldBack.remove(what) || !heldBack.isEmpty()) {
            return;
        }
        Attachment current = attachment;
        if (state.get() == State.CONSUMING && current != null) {
            try {
                current.consumeAgain(queue);
            } catch (Exception e) {
                // Its channel is gone: the loss it reports subscribes again.
                LOG.debugf("%s could not consume queue '%s' again after holding back: %s", subscriber, queue, e);
            }
        }
    }

    /**
     * A partition this instance takes over ({@code PartitionSpreader}): it consumes again with consumer priority
     * {@code priority}, above every other instance's, and keeps it when it subscribes again after a loss. Any thread.
     */
    public void claim(int priority) {
        lane.execute(() -> {
            claim.claim(priority);
            Attachment current = attachment;
            if (state.get() == State.CONSUMING && current != null && heldBack.isEmpty()) {
                try {
                    current.consumeWithPriority(queue, priority);
                } catch (Exception e) {
                    // Its channel is gone: the loss it reports subscribes again, with the claim.
                    LOG.debugf("%s could not claim queue '%s' with priority %d: %s", subscriber, queue, priority, e);
                }
            }
        });
    }

    /**
     * A {@link StallWatch} look, on the lane, while it consumes and nothing holds it back: a stall it reports (RabbitMQ
     * delivers nothing more to a consumer it still counts) makes it consume again on a fresh channel, whose close gives
     * back what the old one was handed. One WARN. Any thread.
     */
    public void checkStall(StallWatch.Probe probe) {
        lane.execute(() -> {
            if (state.get() != State.CONSUMING || !heldBack.isEmpty() || attachment == null) {
                return;
            }
            String stall;
            try {
                stall = probe.look(subscribing.connection());
            } catch (Exception e) {
                // The connection or the queue is going: its own loss says so.
                LOG.debugf("%s could not look at queue '%s' for a stall: %s", subscriber, queue, e);
                return;
            }
            if (stall == null) {
                return;
            }
            LOG.warnf("%s: %s. Consuming again on a fresh channel", subscriber, stall);
            needsFreshChannel = true;
            attempts = 0;
            recovering(stall);
            attempt();
        });
    }

    /** The consumer arguments to consume with: the subscription's, with this instance's claim if it made one. */
    public java.util.Map<String, Object> consumerArguments(java.util.Map<String, Object> declared) {
        return claim.arguments(declared);
    }

    /** A stop's first step ({@link Attachment#stopForClose}). Any thread; what is in flight still settles. */
    public void stopTaking() {
        state.set(State.STOPPED);
        Attachment current = attachment;
        if (current != null) {
            current.stopForClose();
        }
    }

    /** Closes the channel, after {@link #stopTaking()} and the wait for deliveries in flight. */
    public void close() {
        state.set(State.STOPPED);
        Attachment current = attachment;
        if (current != null) {
            current.close();
        }
    }

    private void scheduleAttempt(Duration wait) {
        // Only the latest scheduled attempt runs: one that succeeded meanwhile (the connection came back), or a newer
        // schedule, makes the older one moot, so there is never more than one chain of retries.
        long token = ++scheduled;
        clock.schedule(wait, () -> lane.execute(() -> {
            if (scheduled == token) {
                attempt();
            }
        }));
    }

    /** Subscribes again on a fresh channel; on failure, tries again after the back-off. Lane only. */
    private void attempt() {
        if (state.get() != State.RECOVERING) {
            return;
        }
        try {
            BrokerConnection connection = subscribing.connection();
            subscribing.prepareQueues(connection);
            Attachment old = attachment;
            if (old != null) {
                old.close();
            }
            long next = generation + 1;
            Attachment fresh = subscribing.attach(connection, this, next);
            generation = next;
            attachment = fresh;
            if (state.get() == State.STOPPED) {
                // Stopped while subscribing: the stop did not see this attachment.
                fresh.close();
                return;
            }
            consuming();
            LOG.infof("%s consumes queue '%s' again", subscriber, queue);
        } catch (Exception e) {
            attempts++;
            why = "subscribing again failed: " + describe(e);
            Duration wait = delay();
            LOG.warnf("%s still does not consume queue '%s' (attempt %d): %s. Trying again in %d ms", subscriber, queue,
                    attempts, why, wait.toMillis());
            scheduleAttempt(wait);
        }
    }

    private void consuming() {
        attempts = 0;
        needsFreshChannel = false;
        why = null;
        // No retry scheduled before this success may run.
        scheduled++;
        // Unless a stop came first.
        if (state.compareAndSet(State.RECOVERING, State.CONSUMING)) {
            if (!heldBack.isEmpty() && attachment != null) {
                // Subscribed again while held back: no deliveries until there is room.
                attachment.pause();
            }
            subscribing.consumingAgain();
        }
    }

    /** Enters RECOVERING for this reason unless stopped; false when stopped. */
    private boolean recovering(String reason) {
        why = reason;
        for (;;) {
            State now = state.get();
            if (now == State.STOPPED) {
                return false;
            }
            if (now == State.RECOVERING || state.compareAndSet(now, State.RECOVERING)) {
                return true;
            }
        }
    }

    private Duration delay() {
        return Duration.ofMillis(backoff.getDelay(attempts + 1));
    }

    private static String describe(Exception e) {
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }
}
