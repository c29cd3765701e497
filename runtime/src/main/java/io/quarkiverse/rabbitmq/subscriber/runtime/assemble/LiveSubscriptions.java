package io.quarkiverse.rabbitmq.subscriber.runtime.assemble;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.inject.Singleton;

/**
 * The one home of the application's live subscriptions: the engine registers each as it starts it and says when all
 * started and when the stop began; the readiness check, {@code Subscriptions} (pause, resume), the Dev UI and the
 * in-process broker read them here, so none of them depends on the engine that starts them.
 */
@Singleton
public class LiveSubscriptions {

    /** Replaced, never changed: readers on any thread see a whole list. */
    private volatile List<SubscriptionState> all = List.of();
    /** Set once every subscriber consumed for the first time. */
    private volatile boolean started;
    /** Set when a stop begins: no more subscribing. */
    private volatile boolean stopping;

    /** Listed before it consumes: a failure further on stops it with the others. */
    public synchronized void add(SubscriptionState state) {
        List<SubscriptionState> more = new ArrayList<>(all);
        more.add(state);
        all = List.copyOf(more);
    }

    public void started() {
        started = true;
    }

    /** Marks the stop; false when it had begun already. */
    public synchronized boolean stop() {
        if (stopping) {
            return false;
        }
        stopping = true;
        return true;
    }

    /** The subscriptions started so far, with their supervisors, in start order. */
    public List<SubscriptionState> all() {
        return all;
    }

    /** The subscription of a queue, if one consumes it. */
    public Optional<SubscriptionState> of(String queue) {
        for (SubscriptionState state : all) {
            if (state.queue().equals(queue)) {
                return Optional.of(state);
            }
        }
        return Optional.empty();
    }

    /** Delayed copies the service holds for a subscription ({@code IN_SERVICE}); 0 for a queue none consumes. */
    public int heldCopies(String queue) {
        return of(queue).map(SubscriptionState::heldCopyCount).orElse(0);
    }

    public boolean isStarted() {
        return started;
    }

    public boolean isStopping() {
        return stopping;
    }
}
