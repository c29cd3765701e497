package org.acme.subscriber.test.observe;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.test.QuarkusUnitTest;

/** Micrometer present, {@code quarkus.rabbitmq-subscriber.metrics.enabled=false}: a delivery records no meter. */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class MetricsSwitchedOffTest {

    static final String QUEUE = "t.obs.off";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .setForcedDependencies(List.of(Dependency.of("io.quarkus", "quarkus-micrometer-deployment",
                    io.quarkus.builder.Version.getVersion())))
            .overrideConfigKey("quarkus.micrometer.binder-enabled-default", "false")
            .overrideConfigKey("quarkus.micrometer.registry-enabled-default", "false")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.metrics.enabled", "false");

    @Inject
    MeterRegistry registry;

    @Inject
    SubscriberStatus status;

    @BeforeAll
    static void simpleRegistry() {
        Metrics.globalRegistry.add(new SimpleMeterRegistry());
    }

    @Test
    void recordsNothing() {
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "x"));
        await().until(() -> status.outcomes().getOrDefault(QUEUE, java.util.Map.of()).getOrDefault("ack", 0L) == 1);
        assertNull(registry.find("messaging.client.consumed.messages").counter());
        assertEquals(0, registry.find("quarkus.rabbitmq-subscriber.outcomes").counters().size());
    }

    public static class Handler {
        @Subscriber(QUEUE)
        void handle(String body) {
        }
    }
}
