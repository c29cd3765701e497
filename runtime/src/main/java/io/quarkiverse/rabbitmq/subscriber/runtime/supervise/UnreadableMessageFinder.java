package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import java.time.Duration;
import java.util.List;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * Finds the queue of a message the client cannot read. A header table nested deeper than amqp-client reads (legal
 * AMQP, which RabbitMQ accepts) ends the connection at each delivery, and with it every subscriber on it; amqp-client
 * does not say which channel's frame it was. So after such a cut the subscribers consume again one at a time, a
 * {@code stagger} apart: the cut that follows within a stagger of a subscriber's start names that subscriber, which
 * stops (readiness says why; the message stays in its queue), and the others go on. One ERROR when the message is
 * first met, one when its queue is found. Thread-safe.
 */
public final class UnreadableMessageFinder {

    private static final Logger LOG = Logger.getLogger(UnreadableMessageFinder.class);

    /** One subscriber, as the finder sees it. */
    public interface Suspect {
        String queue();

        SubscriberSupervisor supervisor();
    }

    private final Clock clock;
    private final Duration stagger;
    /** Whether an unreadable message ended the connection and its queue is not known yet. */
    private boolean searching;
    /** The subscriber started last in a staggered round, and when; null when none is a suspect. */
    private Suspect lastStarted;
    private long startedAt;
    /** Counts rounds: a round's later starts do not run once a cut ended it. */
    private long round;

    public UnreadableMessageFinder(Clock clock, Duration stagger) {
        this.clock = clock;
        this.stagger = stagger;
    }

    /** A message the client cannot read ended the connection ({@code what}: the client's words). */
    public void unreadable(String what) {
        Suspect found;
        synchronized (this) {
            round++;
            found = searching && lastStarted != null && clock.millis() - startedAt <= stagger.toMillis()
                    ? lastStarted
                    : null;
            lastStarted = null;
            if (found == null) {
                if (searching) {
                    return;
                }
                searching = true;
            }
        }
        if (found == null) {
            LOG.errorf("RabbitMQ delivered a message the client cannot read (%s): it closed the connection of every "
                    + "subscriber, and its queue is not known yet. The subscribers consume again one at a time, %d ms "
                    + "apart, to find it", what, stagger.toMillis());
            return;
        }
        String reason = "the message at the head of queue '" + found.queue() + "' cannot be read by the client (" + what
                + "): each delivery of it closed the connection of every subscriber. It stays in the queue; remove it "
                + "(rabbitmqctl purge_queue, or move it with a shovel), then restart the application";
        LOG.errorf("Queue '%s' stops being consumed: %s. The other subscribers go on", found.queue(), reason);
        found.supervisor().halt(reason, () -> io.quarkiverse.rabbitmq.subscriber.runtime.observe.LifecycleEvents
                .fire(new io.quarkiverse.rabbitmq.subscriber.SubscriberEvent.Halted(found.queue(), reason)));
    }

    /**
     * The connection is back: every subscriber consumes again, at once, or one at a time while the queue of an
     * unreadable message is searched for.
     */
    public void recovered(List<? extends Suspect> all) {
        long current;
        synchronized (this) {
            if (!searching) {
                all.forEach(suspect -> suspect.supervisor().connectionRecovered());
                return;
            }
            current = ++round;
        }
        long wait = 0;
        for (Suspect suspect : all) {
            if (suspect.supervisor().state() == SubscriberSupervisor.State.STOPPED) {
                continue;
            }
            clock.schedule(Duration.ofMillis(wait), () -> start(suspect, current));
            wait += stagger.toMillis();
        }
        // A whole round, and a stagger more, without a cut: nothing is searched for any more.
        clock.schedule(Duration.ofMillis(wait + stagger.toMillis()), () -> {
            synchronized (this) {
                if (round == current) {
                    searching = false;
                    lastStarted = null;
                }
            }
        });
    }

    private void start(Suspect suspect, long inRound) {
        synchronized (this) {
            if (round != inRound) {
                return;
            }
            lastStarted = suspect;
            startedAt = clock.millis();
        }
        suspect.supervisor().connectionRecovered();
    }
}
