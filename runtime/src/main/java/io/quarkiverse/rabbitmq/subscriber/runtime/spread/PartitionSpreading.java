package io.quarkiverse.rabbitmq.subscriber.runtime.spread;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.LiveSubscriptions;
import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.SubscriptionState;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.ServerVersion;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.Partitioning;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.vertx.core.Vertx;

/**
 * The spreading of this application's partitioned subscriptions over the instances of the service: one
 * {@link PartitionSpreader} per partitioned subscription, where the broker lets one (RabbitMQ 4 and later, quorum
 * partitions: single active consumer hands over to the highest consumer priority). Elsewhere single active consumer
 * ignores priorities: the first instance to consume a partition stays active on it until it leaves, and this says so
 * once at startup.
 */
@Singleton
public class PartitionSpreading {

    private static final Logger LOG = Logger.getLogger(PartitionSpreading.class);

    @Inject
    SubscriberConfig config;

    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions sessions;

    @Inject
    LiveSubscriptions live;

    @Inject
    Vertx vertx;

    private final Map<String, PartitionSpreader> spreaders = new TreeMap<>();
    private volatile String self;

    /** Starts spreading the partitioned ones of these subscribers (their partitions consume already). */
    public synchronized void start(List<SubscriberDefinition> definitions) {
        Map<String, List<SubscriberDefinition>> bySubscription = new TreeMap<>();
        for (SubscriberDefinition definition : definitions) {
            Partitioning partitioning = definition.subscription.partitioning;
            if (partitioning != null && partitioning.isPartition()) {
                bySubscription.computeIfAbsent(partitioning.exchange, name -> new ArrayList<>()).add(definition);
            }
        }
        if (bySubscription.isEmpty()) {
            return;
        }
        self = config.instanceId().orElseGet(PartitionSpreading::generatedId);
        bySubscription.forEach((subscription, partitions) -> {
            partitions.sort(java.util.Comparator.comparingInt(definition -> definition.subscription.partitioning.index));
            // The partitions' own broker: each claims there, beside its queues.
            BrokerSession session = sessions.of(partitions.get(0).subscription.broker);
            ServerVersion broker = ServerVersion.of(session.connection().serverVersion());
            boolean quorum = partitions.get(0).subscription.quorum();
            if (!quorum || !broker.atLeast(4, 0)) {
                LOG.infof("'%s': single active consumer on %s %s ignores consumer priorities: each partition stays "
                        + "with the first instance that consumes it until that one leaves (quorum partitions on "
                        + "RabbitMQ 4 spread over the instances)", subscription,
                        quorum ? "quorum queues of"
                                : "classic "
                                        + "queues of",
                        broker);
                return;
            }
            List<io.quarkiverse.rabbitmq.subscriber.runtime.supervise.SubscriberSupervisor> supervisors = partitions
                    .stream().map(definition -> live.of(definition.subscription.queue).map(SubscriptionState::supervisor)
                            .orElseThrow())
                    .toList();
            PartitionSpreader spreader = new PartitionSpreader(subscription, self, supervisors, session::connection,
                    session.clock(), work -> vertx.executeBlocking(() -> {
                        work.run();
                        return null;
                    }, false));
            spreaders.put(subscription, spreader);
            spreader.start();
        });
    }

    /** Says this instance leaves, so the others take its partitions over at once. Before the channels close. */
    public synchronized void stop() {
        spreaders.values().forEach(PartitionSpreader::stop);
        spreaders.clear();
    }

    /**
     * The partitions of {@code subscription} this instance claims and no live instance outbids, where the broker spreads
     * partitions; empty otherwise (and for a name that is not a partitioned subscription).
     */
    public List<Integer> claimed(String subscription) {
        PartitionSpreader spreader = spreaders.get(subscription);
        return spreader == null ? List.of() : spreader.claimed();
    }

    /** Whether this instance claims the partition queue {@code queue} and no live instance outbids it. */
    public boolean activeOn(String queue) {
        int dot = queue.lastIndexOf('.');
        if (dot < 0) {
            return false;
        }
        try {
            return claimed(queue.substring(0, dot)).contains(Integer.parseInt(queue.substring(dot + 1)));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The live instances that share {@code subscription}'s partitions, this one included, by id. */
    public List<String> instances(String subscription) {
        PartitionSpreader spreader = spreaders.get(subscription);
        return spreader == null ? List.of() : spreader.live();
    }

    /** This instance's id ({@code quarkus.rabbitmq-subscriber.instance-id}); null until a partitioned one starts. */
    public String self() {
        return self;
    }

    private static String generatedId() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "instance";
        }
        return host + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
