package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.SubscriberEvent;
import io.quarkiverse.rabbitmq.subscriber.Subscriptions;
import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.LiveSubscriptions;
import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.SubscriptionState;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LifecycleEvents;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.HoldBacks;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.SubscriberSupervisor;

/**
 * {@link Subscriptions} on the supervisors: a pause is one more reason a supervisor holds its subscriber back (as its
 * bounds and its kill switch are), so it holds across losses and resubscriptions and ends only with a resume.
 */
@Singleton
public class SubscriptionControl implements Subscriptions {

    private static final Logger LOG = Logger.getLogger(SubscriptionControl.class);
    @Inject
    LiveSubscriptions live;

    @Override
    public void pause(String queue) {
        subscription(queue).supervisor().holdBacks().holdBack(HoldBacks.BY_APPLICATION);
        LOG.infof("Queue '%s' is paused: its subscriber takes no deliveries until resumed", queue);
        LifecycleEvents.fire(new SubscriberEvent.Paused(queue));
    }

    @Override
    public void resume(String queue) {
        SubscriberSupervisor supervisor = subscription(queue).supervisor();
        supervisor.holdBacks().takeAgain(HoldBacks.BY_APPLICATION);
        // A kill switch's pause ends with a resume too: the operator says the outage is over.
        supervisor.holdBacks().takeAgain(io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch.HOLDING);
        LOG.infof("Queue '%s' is resumed", queue);
        LifecycleEvents.fire(new SubscriberEvent.Resumed(queue));
    }

    @Override
    public State state(String queue) {
        SubscriberSupervisor supervisor = subscription(queue).supervisor();
        return switch (supervisor.state()) {
            case STARTING -> State.STARTING;
            case RECOVERING -> State.RECOVERING;
            case STOPPED -> State.STOPPED;
            case CONSUMING -> supervisor.paused() ? State.PAUSED : State.CONSUMING;
        };
    }

    private SubscriptionState subscription(String queue) {
        return live.of(queue).orElseThrow(() -> new IllegalArgumentException("No subscriber of this "
                + "application consumes queue '" + queue + "'; the subscribed queues are "
                + live.all().stream().map(SubscriptionState::queue).sorted().toList()));
    }
}
