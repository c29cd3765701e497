package io.quarkiverse.rabbitmq.subscriber.deployment;

import java.util.OptionalInt;

import io.quarkus.runtime.annotations.ConfigDocSection;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Build-time configuration of the RabbitMQ subscribers' Dev Services (read by the deployment module only).
 */
@ConfigMapping(prefix = "quarkus.rabbitmq-subscriber")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface SubscriberDevServicesBuildTimeConfig {

    /** The image Dev Services start by default: RabbitMQ 4.3, the generation CI runs the wire tests on (4.3.6). */
    String DEFAULT_IMAGE = "docker.io/library/rabbitmq:4.3-management";

    /**
     * Dev Services: a RabbitMQ container in dev and test mode.
     */
    @ConfigDocSection(generated = true)
    DevServices devservices();

    interface DevServices {
        /**
         * Whether dev and test mode start a RabbitMQ container (where a container runtime runs). None is started, and
         * no container runtime is looked for, when {@code quarkus.rabbitmq-subscriber.url} or
         * {@code quarkus.rabbitmq-subscriber.addresses} is set, when {@code quarkus.rabbitmq-subscriber.broker} is
         * {@code in-process}, when {@code rabbitmq-host} or {@code rabbitmq-port} is set, or when the application has
         * {@code quarkus-messaging-rabbitmq}, whose own Dev Services then provide the broker.
         */
        @WithDefault("true")
        boolean enabled();

        /**
         * The image to start: an official RabbitMQ image (its repository ends with {@code rabbitmq}). The default is
         * RabbitMQ 4.3, the current generation, which the extension's tests run against.
         */
        @WithDefault(DEFAULT_IMAGE)
        String imageName();

        /**
         * A fixed host port for AMQP; a random one when absent.
         */
        OptionalInt port();

        /**
         * In dev mode, whether a RabbitMQ container that Dev Services started for another application (labelled
         * {@code quarkus-dev-service-rabbitmq}, as Quarkus's RabbitMQ Dev Services do) is used instead of starting one.
         */
        @WithDefault("true")
        boolean shared();

        /**
         * The value of the {@code quarkus-dev-service-rabbitmq} label, by which shared containers are found.
         */
        @WithDefault("rabbitmq")
        String serviceName();
    }
}
