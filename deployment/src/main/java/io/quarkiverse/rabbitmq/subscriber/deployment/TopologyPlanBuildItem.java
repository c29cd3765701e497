package io.quarkiverse.rabbitmq.subscriber.deployment;

import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;
import io.quarkus.builder.item.SimpleBuildItem;

/** The queues, exchanges and bindings every subscription needs, computed at build time from the subscriptions. */
public final class TopologyPlanBuildItem extends SimpleBuildItem {

    private final TopologyPlan plan;

    public TopologyPlanBuildItem(TopologyPlan plan) {
        this.plan = plan;
    }

    public TopologyPlan plan() {
        return plan;
    }
}
