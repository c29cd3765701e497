package io.quarkiverse.rabbitmq.subscriber.runtime;

import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;

/**
 * Every subscriber the build found and the topology they need, handed to the runtime as a synthetic bean created at
 * runtime init (as Quarkus's scheduler hands over its scheduled methods). Immutable. Not the application's
 * {@code io.quarkiverse.rabbitmq.subscriber.Subscriptions} (pause, resume): what the build found, not what runs.
 */
public final class FoundSubscribers {

    private final List<SubscriberDefinition> definitions;
    private final TopologyPlan topology;

    public FoundSubscribers(List<SubscriberDefinition> definitions, TopologyPlan topology) {
        this.definitions = List.copyOf(definitions);
        this.topology = topology;
    }

    public List<SubscriberDefinition> definitions() {
        return definitions;
    }

    public TopologyPlan topology() {
        return topology;
    }
}
