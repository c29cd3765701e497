package io.quarkiverse.rabbitmq.subscriber.deployment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.deployment.SubscriberDevServicesBuildTimeConfig.DevServices;
import io.quarkus.deployment.IsDockerWorking;
import io.quarkus.deployment.builditem.DevServicesComposeProjectBuildItem;
import io.quarkus.deployment.builditem.DevServicesResultBuildItem;
import io.quarkus.deployment.builditem.DockerStatusBuildItem;
import io.quarkus.runtime.LaunchMode;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * When Dev Services want a RabbitMQ container, decided without one: the container runtime is a stand-in that counts
 * (or refuses) probes, and no startable is ever started.
 */
class SubscriberDevServicesDecisionTest {

    private static Config config(String... keyValues) {
        Map<String, String> properties = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            properties.put(keyValues[i], keyValues[i + 1]);
        }
        return new SmallRyeConfigBuilder().withProfile("test")
                .withSources(new PropertiesConfigSource(properties, "test", 250)).build();
    }

    private static DevServices devServices(boolean enabled) {
        return new DevServices() {
            public boolean enabled() {
                return enabled;
            }

            public String imageName() {
                return SubscriberDevServicesBuildTimeConfig.DEFAULT_IMAGE;
            }

            public OptionalInt port() {
                return OptionalInt.empty();
            }

            public boolean shared() {
                return true;
            }

            public String serviceName() {
                return "rabbitmq";
            }
        };
    }

    /** A container runtime that must not be asked. */
    private static final DockerStatusBuildItem NEVER_PROBED = new DockerStatusBuildItem(new IsDockerWorking(true) {
        @Override
        public boolean getAsBoolean() {
            throw new AssertionError("the container runtime was probed");
        }
    });

    private static DockerStatusBuildItem runtime(boolean works, AtomicInteger probes) {
        return new DockerStatusBuildItem(new IsDockerWorking(true) {
            @Override
            public boolean getAsBoolean() {
                probes.incrementAndGet();
                return works;
            }
        });
    }

    private static DevServicesResultBuildItem decide(DevServices devServices, Config config, DockerStatusBuildItem docker) {
        return SubscriberDevServicesProcessor.devService(devServices, config, false, docker,
                new DevServicesComposeProjectBuildItem(), LaunchMode.TEST, false);
    }

    /**
     * The default image is a RabbitMQ generation the wire tests run on (4.3.6 in CI, see .ci/rabbitmq43), and the config
     * default is that constant.
     */
    @Test
    void theDefaultImageIsAVersionTheWireTestsRunOn() throws Exception {
        assertEquals("docker.io/library/rabbitmq:4.3-management", SubscriberDevServicesBuildTimeConfig.DEFAULT_IMAGE);
        io.smallrye.config.WithDefault declared = DevServices.class.getMethod("imageName")
                .getAnnotation(io.smallrye.config.WithDefault.class);
        assertEquals(SubscriberDevServicesBuildTimeConfig.DEFAULT_IMAGE, declared.value());
    }

    @Test
    void ourUrlMeansNoContainerAndNoProbe() {
        assertNull(decide(devServices(true), config("quarkus.rabbitmq-subscriber.url", "amqp://h:5672"), NEVER_PROBED));
        // An expression that resolves only at run time counts as set.
        assertNull(decide(devServices(true), config("quarkus.rabbitmq-subscriber.url", "${RABBIT_URL}"), NEVER_PROBED));
        assertNull(decide(devServices(true), config("%test.quarkus.rabbitmq-subscriber.url", "amqp://h"), NEVER_PROBED));
    }

    @Test
    void inProcessMeansNoContainerAndNoProbe() {
        for (String spelling : new String[] { "in-process", "IN_PROCESS" }) {
            assertNull(decide(devServices(true), config("quarkus.rabbitmq-subscriber.broker", spelling), NEVER_PROBED),
                    spelling);
        }
        assertNull(decide(devServices(true), config("%test.quarkus.rabbitmq-subscriber.broker", "in-process"),
                NEVER_PROBED));
    }

    @Test
    void otherReasonsNotToStart() {
        assertNull(decide(devServices(false), config(), NEVER_PROBED));
        assertNull(decide(devServices(true), config("rabbitmq-host", "rabbit"), NEVER_PROBED));
        assertNull(decide(devServices(true), config("quarkus.rabbitmq-subscriber.addresses", "a:5672,b:5672"),
                NEVER_PROBED));
        assertNotNull(SubscriberDevServicesProcessor.skipReason(true, config(), true), "quarkus-messaging-rabbitmq");
    }

    /** Dev Services start the default broker only: a named broker's url is that broker's, and changes nothing. */
    @Test
    void aNamedBrokersUrlStillWantsAContainerForTheDefaultOne() {
        assertNull(SubscriberDevServicesProcessor.skipReason(true,
                config("quarkus.rabbitmq-subscriber.brokers.billing.url", "amqp://billing"), false));
        assertNull(SubscriberDevServicesProcessor.skipReason(true,
                config("quarkus.rabbitmq-subscriber.brokers.\"billing\".addresses", "b1:5672,b2:5672"), false));
    }

    @Test
    void aProdOnlyUrlStillWantsAContainer() {
        assertNull(SubscriberDevServicesProcessor.skipReason(true,
                config("%prod.quarkus.rabbitmq-subscriber.url", "amqp://prod"), false));
        assertNull(SubscriberDevServicesProcessor.skipReason(true,
                config("quarkus.rabbitmq-subscriber.broker", "auto"), false));
        assertNull(SubscriberDevServicesProcessor.skipReason(true, config("quarkus.rabbitmq-subscriber.url", ""), false));
    }

    @Test
    void withoutAContainerRuntimeNothingIsStarted() {
        AtomicInteger probes = new AtomicInteger();
        assertNull(decide(devServices(true), config(), runtime(false, probes)));
        assertEquals(1, probes.get());
    }

    @Test
    void withAContainerRuntimeAContainerIsOfferedButNotStartedHere() {
        AtomicInteger probes = new AtomicInteger();
        DevServicesResultBuildItem item = decide(devServices(true), config(), runtime(true, probes));
        assertNotNull(item);
        assertTrue(item.isStartable()); // its supplier is never called: no container
        assertEquals(SubscriberProcessor.FEATURE, item.getName());
        assertEquals("guest", item.getConfig().get("rabbitmq-username"));
        assertEquals(1, probes.get());
    }
}
