package io.quarkiverse.rabbitmq.subscriber.runtime.config;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkus.runtime.annotations.ConfigDocMapKey;

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

    /**
     * Per-queue overrides of what the queue's {@code @Subscriber} declares, keyed by the queue's name. They are
     * checked like the annotation, and one that names a queue no subscriber consumes fails the build.
     */
    @ConfigDocMapKey("queue")
    Map<String, QueueOverrides> queues();

    interface QueueOverrides {
        /** Overrides {@code @Subscriber(maxAttempts)}: deliveries of one message, the first included; 0: no cap. */
        OptionalInt maxAttempts();

        /** Overrides {@code @Subscriber(deadLetter)}: the queue that receives the messages that used up the cap. */
        Optional<String> deadLetter();

        /** Overrides {@code @Subscriber(retryPublish)}: {@code default} or {@code confirmed}. */
        Optional<RetryPublish> retryPublish();

        /** Overrides {@code @Subscriber(prefetch)}. */
        OptionalInt prefetch();

        /** Overrides {@code @Subscriber(concurrency)}. */
        OptionalInt concurrency();
    }
}
