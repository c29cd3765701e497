package io.quarkiverse.rabbitmq.subscriber.runtime;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.LiveSubscriptions;
import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.SubscriptionState;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.SubscriberSupervisor;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.UnreadableMessageFinder;

/**
 * Passes what happens to the subscribers' connection on to the subscribers: a loss (each supervisor is told, one WARN),
 * a recovery (each consumes again, one at a time while the queue of an unreadable message is searched for), a message
 * the client cannot read, and the one INFO once every subscriber consumes again. Apart from
 * {@code SubscriberEngine}, which orders the start and the stop, since these run on the client's threads for as long
 * as the connection lives, not once.
 * <p>
 * The events come on the client's threads, in the order they happen: none waits for anything (the supervisors only
 * queue a step), and handing them to an unordered pool could let "recovered" overtake "lost". Takes neither the
 * engine's lock nor the session's. Logs under the engine's category, as it did when the engine relayed them itself.
 */
final class ConnectionEventRelay implements BrokerConnection.ConnectionListener {

    /** The engine's category, as log configurations name it: these lines were the engine's own. */
    private static final Logger LOG = Logger.getLogger("io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberEngine");

    private final BrokerSession session;
    private final LiveSubscriptions live;
    /** How many subscribers the application has, for the loss's WARN. */
    private final int subscribers;
    /** After a message the client cannot read ended the connection: finds its queue (see that class). */
    private final UnreadableMessageFinder unreadable;
    /** A reconnection whose "every subscriber consumes again" line is still to be logged, or null. */
    private final AtomicReference<String> reconnectedTo = new AtomicReference<>();

    ConnectionEventRelay(BrokerSession session, LiveSubscriptions live, int subscribers,
            UnreadableMessageFinder unreadable) {
        this.session = session;
        this.live = live;
        this.subscribers = subscribers;
        this.unreadable = unreadable;
    }

    /** A message the client cannot read ended the connection ({@code what}: the client's words). */
    void unreadableMessage(String what) {
        unreadable.unreadable(what);
    }

    /** One WARN per cut; amqp-client reopens the connection, then {@link #recovered} consumes again. */
    @Override
    public void lost(String reason) {
        if (live.isStopping()) {
            return;
        }
        for (SubscriptionState state : onThisBroker()) {
            state.supervisor().connectionLost(reason);
        }
        LOG.warnf("Lost the connection to %s (%s). Reconnecting %s; the %d subscriber(s) consume again once it "
                + "is back, and RabbitMQ requeues the deliveries left unsettled, so none is lost",
                session.connection().describe() + named(), reason, session.backoff().describe(), subscribers);
    }

    /**
     * The connection and its channels are open again, with no consumer on them: each supervisor declares (or checks)
     * its queues again, since a broker that restarted may have lost them, and consumes again on its channel. Deliveries
     * from before the cut that are settled now are not sent: amqp-client drops acks of tags from an earlier
     * connection, and the broker has requeued those messages already.
     */
    @Override
    public void recovered() {
        if (live.isStopping()) {
            return;
        }
        reconnectedTo.set(session.connection().describe() + named());
        unreadable.recovered(onThisBroker());
    }

    /**
     * One INFO once every subscriber consumes again after a reconnection; each supervisor calls it when it consumes
     * again.
     */
    void logWhenAllConsume() {
        List<SubscriptionState> all = onThisBroker();
        if (all.stream().allMatch(s -> s.supervisor().state() == SubscriberSupervisor.State.CONSUMING)) {
            String to = reconnectedTo.getAndSet(null);
            if (to != null) {
                LOG.infof("Reconnected to %s: every subscriber consumes again %s", to,
                        all.stream().map(SubscriptionState::queue).toList());
            }
        }
    }

    private String named() {
        return io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions.named(session.name());
    }

    /** The subscriptions on this relay's broker: a cut of one broker's connection is theirs alone. */
    private List<SubscriptionState> onThisBroker() {
        return live.all().stream().filter(state -> state.definition().subscription.broker.equals(session.name()))
                .toList();
    }
}
