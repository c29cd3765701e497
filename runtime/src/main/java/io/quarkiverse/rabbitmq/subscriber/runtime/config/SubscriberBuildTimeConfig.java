package io.quarkiverse.rabbitmq.subscriber.runtime.config;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Build-time configuration of the RabbitMQ subscribers.
 */
@ConfigMapping(prefix = "quarkus.rabbitmq-subscriber")
@ConfigRoot(phase = ConfigPhase.BUILD_AND_RUN_TIME_FIXED)
public interface SubscriberBuildTimeConfig {

    /**
     * Whether the extension declares the queues its subscribers consume (durable, with the arguments their
     * {@code @Subscriber} implies). When false, startup checks passively that every queue exists and refuses to start,
     * naming each one that is missing.
     */
    @WithDefault("true")
    boolean declareTopology();
}
