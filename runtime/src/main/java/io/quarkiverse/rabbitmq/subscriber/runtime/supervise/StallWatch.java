package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * Finds a consumer RabbitMQ stopped delivering to while it still counts it as consuming
 * ({@code quarkus.rabbitmq-subscriber.stall-timeout}). A quorum queue's consumer has been seen to get nothing more after
 * its queue's leader moved: the queue kept thousands of messages ready, the consumer held nothing, no error came, and
 * nothing would ever come (the messages it had been handed were lost on the way; they go back only with the channel).
 * Nothing on the wire says so, so this looks: every half timeout, each subscriber that consumes, holds nothing
 * unsettled and got nothing since the last look asks its queue how many messages are ready (a passive declare; a busy
 * subscriber costs nothing). Ready messages whose count never went down for the whole timeout make the subscriber
 * consume again on a fresh channel, with a WARN that says what was seen; closing the old channel gives back whatever it
 * was handed. A queue with a single active consumer elsewhere, busier than its publishers, looks the same from a
 * waiting instance: consuming again there does no harm, and the timeout doubles at each repeat (up to 16 times) until
 * a delivery comes, so the WARNs thin out.
 */
public final class StallWatch {

    /** One subscriber, as the watch sees it. */
    public interface Watched {
        String queue();

        SubscriberSupervisor supervisor();

        /** Deliveries received over its whole run. */
        long takenCount();

        /** Deliveries received and not settled now. */
        long unsettledCount();
    }

    /** A look at one subscriber's queue: what stalled, or null. */
    @FunctionalInterface
    public interface Probe {
        String look(BrokerConnection connection) throws Exception;
    }

    /** What the last look at a subscriber saw. */
    private record Look(long taken, long idleSince, int ready, int repeats) {
    }

    private static final int MOST_DOUBLINGS = 4;

    private final Clock clock;
    private final Duration timeout;
    private final Supplier<List<? extends Watched>> watched;
    private final Map<String, Look> looks = new ConcurrentHashMap<>();
    private volatile Clock.Timer next;
    private volatile boolean stopped;

    /** @param timeout how long ready messages may wait, their count never going down, before it acts */
    public StallWatch(Clock clock, Duration timeout, Supplier<List<? extends Watched>> watched) {
        this.clock = clock;
        this.timeout = timeout;
        this.watched = watched;
    }

    public void start() {
        schedule();
    }

    public void stop() {
        stopped = true;
        Clock.Timer timer = next;
        if (timer != null) {
            timer.cancel();
        }
    }

    private void schedule() {
        if (!stopped) {
            next = clock.schedule(timeout.dividedBy(2), () -> {
                for (Watched subscriber : watched.get()) {
                    subscriber.supervisor().checkStall(connection -> look(subscriber, connection));
                }
                schedule();
            });
        }
    }

    /**
     * One look at a subscriber that consumes and is not held back, on its supervisor's lane: what stalled, or null.
     * Package-private for tests.
     */
    String look(Watched subscriber, BrokerConnection connection) throws Exception {
        String queue = subscriber.queue();
        long taken = subscriber.takenCount();
        Look before = looks.get(queue);
        if (before == null || taken != before.taken() || subscriber.unsettledCount() > 0) {
            // Busy, or first seen: nothing to ask the broker.
            looks.put(queue, new Look(taken, -1, -1, before != null && taken == before.taken() ? before.repeats() : 0));
            return null;
        }
        int ready;
        try (BrokerChannel channel = connection.createChannel()) {
            ready = channel.declareQueuePassive(queue).messageCount();
        }
        long now = clock.millis();
        if (ready == 0 || before.ready() >= 0 && ready < before.ready()) {
            // Nothing waits, or something took messages (another instance's consumer): not stalled.
            looks.put(queue, new Look(taken, -1, ready, before.repeats()));
            return null;
        }
        long since = before.idleSince() < 0 ? now : before.idleSince();
        long allowed = timeout.toMillis() << Math.min(before.repeats(), MOST_DOUBLINGS);
        if (now - since < allowed) {
            looks.put(queue, new Look(taken, since, ready, before.repeats()));
            return null;
        }
        looks.put(queue, new Look(taken, -1, -1, before.repeats() + 1));
        return "queue '" + queue + "' kept " + ready + " message(s) ready for " + (now - since) / 1000
                + " s, their count never going down, while this consumer got nothing and held nothing unsettled: RabbitMQ "
                + "stopped delivering to it (seen on quorum queues after their leader moved), or another instance is the "
                + "queue's single active consumer and slower than the publishers (quarkus.rabbitmq-subscriber"
                + ".stall-timeout=" + Duration.ofMillis(allowed).toSeconds() + "s)";
    }
}
