package io.quarkiverse.rabbitmq.subscriber.deployment;

import java.util.Optional;

import org.jboss.jandex.IndexView;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberEngine;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.DeliveryCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.LiveSubscriptions;
import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.SubscriberAssembler;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberBuildTimeConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.runtime.health.SubscriberReadinessCheck;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.ApplicationObservers;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.metrics.MicrometerObserver;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.tracing.OpenTelemetryObserver;
import io.quarkiverse.rabbitmq.subscriber.runtime.operate.BrokerDeadLetters;
import io.quarkiverse.rabbitmq.subscriber.runtime.operate.SubscriptionControl;
import io.quarkiverse.rabbitmq.subscriber.runtime.publish.PartitionAddresses;
import io.quarkiverse.rabbitmq.subscriber.runtime.spread.PartitionSpreading;
import io.quarkiverse.rabbitmq.subscriber.runtime.stream.StreamEnvironments;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyAdmin;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.nativeimage.RuntimeInitializedPackageBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.runtime.metrics.MetricsFactory;
import io.quarkus.smallrye.health.deployment.spi.HealthBuildItem;

/**
 * The runtime's own beans, and what must not be removed: the engine and its parts, the observers whose libraries are
 * present, the readiness check, the beans that only consume queues, and the in-process broker's beans where its
 * artifacts are on the class path. {@link SubscriberProcessor} finds, validates and records the subscribers.
 */
class SubscriberBeansProcessor {

    /** The beans of the in-process broker's artifact and of the test artifact, by name: the runtime has neither. */
    static final String[] IN_PROCESS_BEANS = {
            "io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessControls",
            "io.quarkiverse.rabbitmq.subscriber.testing.internal.InProcessBrokerHandle" };

    @BuildStep
    void beans(CombinedIndexBuildItem combinedIndex, BuildProducer<AdditionalBeanBuildItem> beans,
            BuildProducer<UnremovableBeanBuildItem> unremovable) {
        beans.produce(AdditionalBeanBuildItem.builder()
                .addBeanClasses(SubscriberEngine.class, SubscriberStatus.class,
                        io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions.class, TopologyAdmin.class,
                        SubscriberAssembler.class, DeliveryCounters.class, LiveSubscriptions.class,
                        io.quarkiverse.rabbitmq.subscriber.runtime.publish.RabbitPublishers.class,
                        BrokerDeadLetters.class, SubscriptionControl.class, PartitionAddresses.class, PartitionSpreading.class,
                        StreamEnvironments.class, io.quarkiverse.rabbitmq.subscriber.runtime.codec.Codecs.class)
                .setUnremovable().build());
        // A bean whose only use is consuming a queue is referenced by nothing: keep it.
        IndexView index = combinedIndex.getIndex();
        unremovable.produce(new UnremovableBeanBuildItem(bean -> bean.isClassBean()
                && SubscriberProcessor.declaresSubscribers(bean.getTarget().get().asClass(), index)));
        unremovable.produce(UnremovableBeanBuildItem.beanTypes(ObjectMapper.class));
        // Produced by kept beans, and looked up as well as injected (the test artifact, the Dev UI, Arc lookups).
        unremovable.produce(UnremovableBeanBuildItem.beanTypes(io.quarkiverse.rabbitmq.subscriber.RabbitPublisher.class,
                io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession.class));
        // The application's codecs: asked through Codecs' list of them, never injected by the application itself.
        unremovable.produce(UnremovableBeanBuildItem.beanTypes(io.quarkiverse.rabbitmq.subscriber.PayloadCodec.class));
        // The in-process broker's controls (dev mode, tests) and the test artifact's handle, where their artifacts are
        // on the class path: looked up by the Dev UI and injected by tests, so kept.
        unremovable.produce(UnremovableBeanBuildItem.beanClassNames(IN_PROCESS_BEANS));
    }

    /**
     * The stream client's classes start at run time in a native image: the static state of its codecs loads the
     * compression libraries the extension leaves out, and its Netty parts belong to the running application.
     */
    @BuildStep
    RuntimeInitializedPackageBuildItem streamClientAtRunTime() {
        return new RuntimeInitializedPackageBuildItem("com.rabbitmq.stream");
    }

    /**
     * Metrics and tracing: each observer bean only where its library is present (and, for Micrometer, enabled) and its
     * switch is on, so nothing of either is loaded otherwise.
     */
    @BuildStep
    void observers(SubscriberBuildTimeConfig config, Optional<MetricsCapabilityBuildItem> metrics,
            Capabilities capabilities, BuildProducer<AdditionalBeanBuildItem> beans) {
        beans.produce(AdditionalBeanBuildItem.unremovableOf(ApplicationObservers.class));
        if (config.metrics().enabled()
                && metrics.map(capability -> capability.metricsSupported(MetricsFactory.MICROMETER)).orElse(false)) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(MicrometerObserver.class));
        }
        if (config.tracing().enabled() && capabilities.isPresent(Capability.OPENTELEMETRY_TRACER)) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(OpenTelemetryObserver.class));
        }
    }

    /** The readiness check, which quarkus-smallrye-health registers when the application has it. */
    @BuildStep
    HealthBuildItem readiness(SubscriberBuildTimeConfig config) {
        return new HealthBuildItem(SubscriberReadinessCheck.class.getName(), config.health().enabled());
    }
}
