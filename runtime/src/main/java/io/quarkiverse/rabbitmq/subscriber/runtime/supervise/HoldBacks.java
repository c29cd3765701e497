package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import java.util.HashSet;
import java.util.Set;

import io.quarkiverse.rabbitmq.subscriber.runtime.flow.BackPressure;

/**
 * What holds a subscriber back from taking deliveries now, by name: its bounds (held copies, unsettled bytes) as
 * back-pressure for a moment, and the reasons it is paused ({@link #paused}): the application's
 * {@code Subscriptions.pause} and its kill switch. Each holds it back across losses and resubscriptions until it
 * takes again; it consumes once nothing does.
 * <p>
 * Made first, before the subscriber's supervisor and before the parts that hold it back, so that each of them is made
 * whole with it: the supervisor acts on every change, on its own lane, in the order the changes were made.
 */
public final class HoldBacks {

    /** What {@code Subscriptions.pause} holds the subscriber back as. */
    public static final String BY_APPLICATION = "paused by the application";

    /** Acts on a change of what holds back: {@code held} is true when {@code what} starts holding it back. */
    interface Reaction {
        void changed(String what, boolean held);
    }

    private final Object order = new Object();
    /** Read by any thread; replaced whole as each change is handed on, so a caller reads its own change. */
    private volatile Set<String> now = Set.of();
    /** The supervisor's, from when it is made; guarded by {@link #order}. */
    private Reaction reaction = (what, held) -> {
    };

    /** {@code what} (the held copies, say: whoever calls says why) stops it taking deliveries. Any thread. */
    public void holdBack(String what) {
        change(what, true);
    }

    /** The end of {@link #holdBack} by {@code what}. Any thread. */
    public void takeAgain(String what) {
        change(what, false);
    }

    /** What holds it back now; empty while nothing does. Any thread. */
    public Set<String> now() {
        return now;
    }

    /** Whether the application or the kill switch paused it (as opposed to a bound holding it back for a moment). */
    public boolean paused() {
        Set<String> holding = now;
        return holding.contains(BY_APPLICATION) || holding.contains(KillSwitch.HOLDING);
    }

    /** A bound's back-pressure, under the bound's own name. */
    public BackPressure under(String what) {
        return new BackPressure() {
            @Override
            public void full() {
                holdBack(what);
            }

            @Override
            public void room() {
                takeAgain(what);
            }
        };
    }

    /** Told by the supervisor as it is made: nothing holds back before a subscriber consumes. */
    void reactWith(Reaction reaction) {
        synchronized (order) {
            this.reaction = reaction;
        }
    }

    private void change(String what, boolean held) {
        synchronized (order) {
            Set<String> changed = new HashSet<>(now);
            if (held ? changed.add(what) : changed.remove(what)) {
                now = Set.copyOf(changed);
            }
            reaction.changed(what, held);
        }
    }
}
