package io.quarkiverse.rabbitmq.subscriber.runtime;

import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.annotations.Recorder;

@Recorder
public class SubscriberRecorder {

    /** Hands the subscribers found at build time to the engine; it starts them once the application has started. */
    public void register(List<SubscriberDefinition> definitions, TopologyPlan topology) {
        Arc.container().instance(SubscriberEngine.class).get().define(definitions, topology);
    }
}
