package org.acme.docs.devmode;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.acme.docs.security.ConfigSamples;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.deployment.SubscriberDevServicesBuildTimeConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.smallrye.config.SmallRyeConfig;

/**
 * The Dev mode page's sample is configuration only: its keys are the extension's, {@code auto} applies in the dev
 * profile only, and the Dev Services image is the one named.
 */
class DevmodeSamplesTest {

    @Test
    void autoInTheDevProfileOnly() {
        assertEquals(SubscriberConfig.BrokerKind.AUTO, ConfigSamples.load("docs/devmode.properties", "dev")
                .getConfigMapping(SubscriberConfig.class).broker());
        assertEquals(SubscriberConfig.BrokerKind.RABBITMQ, ConfigSamples.load("docs/devmode.properties", "prod")
                .getConfigMapping(SubscriberConfig.class).broker());
    }

    @Test
    void theDevServicesImage() {
        SmallRyeConfig config = ConfigSamples.load("docs/devmode.properties", "dev");
        assertEquals("docker.io/library/rabbitmq:3.13-management",
                config.getConfigMapping(SubscriberDevServicesBuildTimeConfig.class).devservices().imageName());
    }
}
