package io.quarkiverse.rabbitmq.subscriber.runtime;

import java.util.List;
import java.util.function.Supplier;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;
import io.quarkus.runtime.annotations.Recorder;

@Recorder
public class SubscriberRecorder {

    /** The subscribers found at build time, as the synthetic {@link Subscriptions} bean the engine starts from. */
    public Supplier<Subscriptions> subscriptions(List<SubscriberDefinition> definitions, TopologyPlan topology) {
        Subscriptions subscriptions = new Subscriptions(definitions, topology);
        return () -> subscriptions;
    }
}
