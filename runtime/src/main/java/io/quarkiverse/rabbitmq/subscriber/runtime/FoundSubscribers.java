package io.quarkiverse.rabbitmq.subscriber.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;

/**
 * Every subscriber the build found and the topology they need, handed to the runtime as a synthetic bean created at
 * runtime init (as Quarkus's scheduler hands over its scheduled methods). Immutable. Not the application's
 * {@code io.quarkiverse.rabbitmq.subscriber.Subscriptions} (pause, resume): what the build found, not what runs.
 */
public final class FoundSubscribers {

    private final List<SubscriberDefinition> definitions;
    private final TopologyPlan topology;
    /** What each broker must hold, by the broker's name: the subscriptions on it, each declared on its own broker. */
    private final Map<String, TopologyPlan> topologies;
    /** {@link #brokerOf}'s answers, made on first use. */
    private volatile Map<String, String> brokers;

    /**
     * @param definitions every subscriber, a partitioned one split into its partitions
     * @param declared the subscriptions as declared (a partitioned one whole), whose topology is planned per broker
     * @param topology the topology of them all, as the build planned it
     */
    public FoundSubscribers(List<SubscriberDefinition> definitions, List<SubscriptionSpec> declared,
            TopologyPlan topology) {
        this.definitions = List.copyOf(definitions);
        this.topology = topology;
        Map<String, List<SubscriptionSpec>> byBroker = new TreeMap<>();
        declared.forEach(spec -> byBroker.computeIfAbsent(spec.broker, broker -> new ArrayList<>()).add(spec));
        Map<String, TopologyPlan> plans = new TreeMap<>();
        if (byBroker.size() == 1) {
            plans.put(byBroker.keySet().iterator().next(), topology);
        } else {
            byBroker.forEach((broker, specs) -> plans.put(broker, TopologyPlan.of(specs)));
        }
        this.topologies = Collections.unmodifiableMap(plans);
    }

    public List<SubscriberDefinition> definitions() {
        return definitions;
    }

    /** The topology of every broker's subscriptions together (the Dev UI's view). */
    public TopologyPlan topology() {
        return topology;
    }

    /**
     * The broker a queue is on: that of the subscription whose work, dead-letter, parking or waiting queue (or super
     * stream partition) it is; the default broker for any other. Queue names are unique across the brokers.
     */
    public String brokerOf(String queue) {
        Map<String, String> known = brokers;
        if (known == null) {
            Map<String, String> made = new java.util.HashMap<>();
            for (SubscriberDefinition definition : definitions) {
                SubscriptionSpec spec = definition.subscription;
                made.put(spec.queue, spec.broker);
                made.put(spec.parkingQueue(), spec.broker);
                if (spec.deadLetter != null) {
                    made.put(spec.deadLetter, spec.broker);
                }
                spec.waitingQueues().forEach(waiting -> made.put(waiting, spec.broker));
                if (spec.superStream()) {
                    for (int index = 0; index < spec.partitioning.count; index++) {
                        made.put(io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SuperStream.partition(
                                spec.queue, index), spec.broker);
                    }
                }
            }
            brokers = made;
            known = made;
        }
        return known.getOrDefault(queue, io.quarkiverse.rabbitmq.subscriber.Broker.DEFAULT);
    }

    /** The brokers with subscriptions, by name, each with what it must hold. */
    public Map<String, TopologyPlan> topologies() {
        return topologies;
    }
}
