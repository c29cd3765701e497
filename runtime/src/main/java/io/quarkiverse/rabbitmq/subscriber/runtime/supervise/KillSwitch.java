package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.SubscriberEvent;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LifecycleEvents;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * A subscription's kill switch ({@code quarkus.rabbitmq-subscriber.queues."<queue>".kill-switch.*}): after that many
 * handler failures in a row the subscriber pauses for that long (held back: its consumer cancelled, the messages
 * waiting in RabbitMQ), then resumes; one WARN each way. A downstream outage then spends those attempts, not every
 * message's cap. While it is tripped, deliveries already on their way are given back without running the handler.
 * Kept with the subscription, whatever happens to its channels; called from its event loops.
 */
public final class KillSwitch {

    private static final Logger LOG = Logger.getLogger(KillSwitch.class);
    /** What it holds the subscriber back as. */
    public static final String HOLDING = "kill switch";

    /** A subscription without one. */
    public static final KillSwitch NONE = new KillSwitch(null, 0, Duration.ZERO, null, null);

    private final String queue;
    private final int failures;
    private final Duration pause;
    private final Clock clock;
    /** Its subscriber's: the kill switch pauses it there. */
    private final HoldBacks holdBacks;
    private final AtomicInteger inARow = new AtomicInteger();
    private volatile boolean tripped;

    private KillSwitch(String queue, int failures, Duration pause, Clock clock, HoldBacks holdBacks) {
        this.queue = queue;
        this.failures = failures;
        this.pause = pause;
        this.clock = clock;
        this.holdBacks = holdBacks;
    }

    public static KillSwitch of(SubscriptionSpec subscription, Clock clock, HoldBacks holdBacks) {
        return subscription.killSwitchFailures <= 0 ? NONE
                : new KillSwitch(subscription.queue, subscription.killSwitchFailures,
                        Duration.ofMillis(subscription.killSwitchPauseMillis), clock, holdBacks);
    }

    /** Whether it is tripped now: a delivery that arrives meanwhile goes back to its queue unhandled. */
    public boolean tripped() {
        return tripped;
    }

    /** A handler failed. */
    public void failed() {
        if (failures <= 0 || inARow.incrementAndGet() < failures || tripped) {
            return;
        }
        tripped = true;
        LOG.warnf("Queue '%s': %d handler failures in a row: the kill switch pauses the subscriber for %s (the "
                + "messages wait in RabbitMQ), then it resumes", queue, failures, pause);
        holdBacks.holdBack(HOLDING);
        LifecycleEvents.fireOnAWorker(new SubscriberEvent.KillSwitchTripped(queue, failures, pause));
        clock.schedule(pause, () -> {
            inARow.set(0);
            tripped = false;
            LOG.warnf("Queue '%s': the kill switch's pause of %s is over: the subscriber resumes", queue, pause);
            holdBacks.takeAgain(HOLDING);
            LifecycleEvents.fireOnAWorker(new SubscriberEvent.Resumed(queue));
        });
    }

    /** A handler succeeded (any outcome but a failure): the count starts again. */
    public void succeeded() {
        if (failures > 0) {
            inARow.set(0);
        }
    }
}
