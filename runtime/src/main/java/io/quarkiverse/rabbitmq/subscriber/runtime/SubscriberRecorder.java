package io.quarkiverse.rabbitmq.subscriber.runtime;

import java.util.List;
import java.util.function.Supplier;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.ConfiguredNames;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.Partitions;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;
import io.quarkus.runtime.annotations.Recorder;

@Recorder
public class SubscriberRecorder {

    /**
     * The subscribers found at build time, as the synthetic {@link FoundSubscribers} bean the engine starts from. Names
     * from the configuration ({@code ${property}}) are resolved here, at runtime init, and the topology planned again
     * for them; a name that cannot be resolved, or that breaks a rule once resolved, stops startup. A partitioned
     * subscriber becomes one subscriber per partition queue.
     */
    public Supplier<FoundSubscribers> subscriptions(List<SubscriberDefinition> definitions, TopologyPlan topology) {
        FoundSubscribers subscriptions;
        if (ConfiguredNames.anyIn(definitions)) {
            Config config = ConfigProvider.getConfig();
            List<SubscriberDefinition> resolved = ConfiguredNames.resolve(definitions,
                    key -> config.getOptionalValue(key, String.class));
            List<io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec> specs = resolved.stream()
                    .map(definition -> definition.subscription).toList();
            subscriptions = new FoundSubscribers(Partitions.splitSubscribers(resolved), specs, TopologyPlan.of(specs));
        } else {
            subscriptions = new FoundSubscribers(Partitions.splitSubscribers(definitions),
                    definitions.stream().map(definition -> definition.subscription).toList(), topology);
        }
        return () -> subscriptions;
    }
}
