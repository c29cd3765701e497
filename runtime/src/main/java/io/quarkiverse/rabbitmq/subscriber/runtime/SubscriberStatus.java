package io.quarkiverse.rabbitmq.subscriber.runtime;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.DeliveryCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.LiveSubscriptions;
import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.SubscriptionState;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.SettlementStats;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;

/**
 * What the subscribers are doing, read-only, for the readiness check, the Dev UI and tests: nothing here opens a
 * connection or changes a subscriber.
 */
@Singleton
public class SubscriberStatus {

    /** What the build found. */
    @Inject
    FoundSubscribers found;

    /** What runs. */
    @Inject
    LiveSubscriptions live;

    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions sessions;

    @Inject
    DeliveryCounters counters;

    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.spread.PartitionSpreading spreading;

    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.stream.StreamEnvironments streams;

    /**
     * The partitions of the partitioned subscription {@code subscription} this instance is active on, or is taking over
     * (RabbitMQ hands a partition over once the instance before has settled what it holds), where the broker spreads
     * partitions over the instances (quorum partitions on RabbitMQ 4, super streams); empty elsewhere.
     */
    public List<Integer> activePartitions(String subscription) {
        List<Integer> superStream = streams.activePartitions(subscription);
        return superStream.isEmpty() ? spreading.claimed(subscription) : superStream;
    }

    /**
     * How many messages of {@code stream} (stream subscription {@code subscription}'s stream, or a partition of its super
     * stream) are past the offset its consumer stored, to within a chunk; NaN where this instance does not read it.
     */
    public double streamLag(String subscription, String stream) {
        return streams.lag(subscription, stream);
    }

    /** The live instances that share {@code subscription}'s partitions, this one included, by id; empty elsewhere. */
    public List<String> partitionInstances(String subscription) {
        return spreading.instances(subscription);
    }

    /** The subscribers the build found. */
    public List<SubscriberDefinition> definitions() {
        return found.definitions();
    }

    /** What the subscriptions need on the broker: planned at build time, again at startup for names from config. */
    public TopologyPlan topology() {
        return found.topology();
    }

    /** What each broker with subscriptions must hold, by the broker's name. */
    public Map<String, TopologyPlan> topologies() {
        return found.topologies();
    }

    /**
     * Whether the subscribers can take messages now, and if not, why: by what (the connection, a queue, the
     * publisher) the reasons. Read by the readiness health check.
     */
    public Map<String, String> notReady() {
        Map<String, String> problems = new TreeMap<>();
        if (live.isStopping()) {
            problems.put("subscribers", "stopped");
            return problems;
        }
        boolean started = live.isStarted();
        if (!found.definitions().isEmpty() && !started) {
            problems.put("subscribers", "starting");
        }
        // Each broker its own entry: the default one's as it always was, a named one's with its name.
        for (BrokerSession session : sessions.all()) {
            session.downBecause().ifPresent(down -> problems.put("connection" + named(session), down));
        }
        if (started) {
            for (SubscriptionState state : live.all()) {
                String why = state.supervisor().notConsumingBecause();
                if (why != null) {
                    problems.put("queue " + state.queue(), "not consuming: " + why);
                } else if ((why = streams.notReadingBecause(state.queue())) != null) {
                    // A stream's consumer the stream client is recovering: subscribed, and reading nothing meanwhile.
                    problems.put("queue " + state.queue(), "not reading: " + why);
                }
            }
        }
        for (BrokerSession session : sessions.all()) {
            session.publishingBlockedBecause().ifPresent(reason -> problems.put("publisher" + named(session),
                    "RabbitMQ blocks publishing (" + reason + "): publishes wait up to their confirm timeout"));
        }
        return problems;
    }

    private static String named(BrokerSession session) {
        return io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions.named(session.name());
    }

    /** The queues whose subscribers are paused (by the application or their kill switch), sorted. */
    public List<String> paused() {
        return live.all().stream()
                .filter(state -> state.supervisor().paused())
                .map(SubscriptionState::queue).sorted().toList();
    }

    /** Delayed copies the service holds for a subscription ({@code IN_SERVICE}). */
    public int heldCopies(String queue) {
        return live.heldCopies(queue);
    }

    /**
     * Body bytes a subscription holds received and not settled ({@code max-unsettled-bytes} bounds them); 0 for a queue
     * no subscriber consumes.
     */
    public long unsettledBytes(String queue) {
        return live.of(queue).map(SubscriptionState::unsettledByteCount).orElse(0L);
    }

    /** The prefetch a subscription consumes with now: the configured one, unless the bound on bytes cut it. */
    public int prefetch(String queue) {
        return live.of(queue).map(SubscriptionState::prefetchNow).orElse(0);
    }

    /** Deliveries handed to handlers and not settled yet. */
    public int inFlight() {
        return counters.inFlight().count();
    }

    /** Each queue's deliveries by what became of them (ack, retry, ..., failure). */
    public Map<String, Map<String, Long>> outcomes() {
        return counters.outcomes().snapshot();
    }

    /** The settlement checks the tests read (acks sent, settled off their loop, ...). */
    public SettlementStats stats() {
        return counters.stats();
    }
}
