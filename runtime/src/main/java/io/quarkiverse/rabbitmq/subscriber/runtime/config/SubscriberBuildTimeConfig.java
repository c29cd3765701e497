package io.quarkiverse.rabbitmq.subscriber.runtime.config;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import io.quarkiverse.rabbitmq.subscriber.Delay;
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

    /** Build-time settings of the named brokers ({@code quarkus.rabbitmq-subscriber.brokers."<name>".*}). */
    @ConfigDocMapKey("broker-name")
    java.util.Map<String, NamedBroker> brokers();

    /** A named broker's build-time settings. */
    interface NamedBroker {
        /** Whether the extension declares this broker's queues; {@code declare-topology} when unset. */
        java.util.Optional<Boolean> declareTopology();
    }

    /** Whether the extension declares the queues of this broker (a configured name, or {@code Broker.DEFAULT}). */
    default boolean declareTopology(String broker) {
        NamedBroker named = brokers().get(broker);
        return named == null ? declareTopology() : named.declareTopology().orElse(declareTopology());
    }

    /**
     * Per-queue overrides of what the queue's {@code @Subscriber} declares, keyed by the queue's name. They are
     * checked like the annotation, and one that names a queue no subscriber consumes fails the build.
     */
    @ConfigDocMapKey("queue")
    Map<String, QueueOverrides> queues();

    /** The readiness health check. */
    Health health();

    /** The inbox of {@code @Subscriber(inbox = true)} subscriptions. */
    InboxBuild inbox();

    /** The outbox, at build time. */
    OutboxBuild outbox();

    interface OutboxBuild {
        /**
         * Whether {@code RabbitPublisher} sends made inside the application's own JTA transaction (a
         * {@code @Transactional} method, say) go to the outbox table in that transaction and are published after its
         * commit (a rollback takes them with it). Needs a JDBC datasource and JTA, as the inbox does; the datasource is
         * {@code inbox.datasource}.
         */
        @WithDefault("false")
        boolean enabled();
    }

    interface InboxBuild {
        /**
         * The datasource holding the inbox table and joined by the handlers' transactions: {@code <default>} for the
         * default datasource, else a named one ({@code quarkus.datasource."name".*}).
         */
        @WithDefault("<default>")
        String datasource();
    }

    interface Health {
        /**
         * Whether a readiness check reports the subscribers (DOWN while the connection is lost, a subscriber does not
         * consume, or RabbitMQ blocks publishing), where the application has {@code quarkus-smallrye-health}.
         */
        @WithDefault("true")
        boolean enabled();
    }

    /** Metrics, where the application has Micrometer ({@code quarkus-micrometer}). */
    Metrics metrics();

    interface Metrics {
        /**
         * Whether the subscribers and the publisher record metrics: {@code messaging.client.consumed.messages},
         * {@code messaging.process.duration}, {@code messaging.client.operation.duration},
         * {@code messaging.client.sent.messages}, {@code quarkus.rabbitmq-subscriber.outcomes} and the gauges
         * {@code quarkus.rabbitmq-subscriber.delayed.pending} and {@code quarkus.rabbitmq-subscriber.deliveries.in-flight}.
         * Without Micrometer nothing is registered, whatever this says.
         */
        @WithDefault("true")
        boolean enabled();
    }

    /** Tracing, where the application has OpenTelemetry ({@code quarkus-opentelemetry}) with tracing on. */
    Tracing tracing();

    interface Tracing {
        /**
         * Whether publishes get a PRODUCER span whose context goes into the message's headers, and deliveries a
         * CONSUMER span, child of that context, current while the handler runs. Without OpenTelemetry nothing is
         * registered, whatever this says.
         */
        @WithDefault("true")
        boolean enabled();
    }

    /** RabbitMQ's delayed-message exchange, for subscriptions with {@code delay = PLUGIN}. */
    DelayedExchange delayedExchange();

    interface DelayedExchange {
        /**
         * Whether the broker has the {@code rabbitmq_delayed_message_exchange} plugin enabled, so subscriptions may
         * use {@code delay = PLUGIN}. The plugin is a community plugin: it is not shipped with RabbitMQ and not packaged
         * by Linux distributions; the waiting-queue strategies ({@code DLX_TTL}, {@code DLX_TTL_PER_DELAY}) need none.
         */
        @WithDefault("false")
        boolean enabled();

        /**
         * The delayed-message exchange ({@code x-delayed-message}, routing as {@code direct}) that {@code PLUGIN}
         * copies go through; each such work queue is bound to it under its own name.
         */
        @WithDefault("rabbitmq-subscriber.delayed")
        String name();
    }

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

        /**
         * Overrides {@code @Subscriber(delay)}: {@code in-service}, {@code dlx-ttl}, {@code dlx-ttl-per-delay} or
         * {@code plugin}.
         */
        Optional<Delay> delay();

        /** Overrides {@code @Subscriber(waitingQueue)}. */
        Optional<String> waitingQueue();

        /** Overrides {@code @Subscriber(delays)}: durations such as {@code 500ms,30s,5m}. */
        Optional<List<String>> delays();

        /**
         * Adds to or replaces {@code @Subscriber(arguments)}: queue arguments by name, each value read as the
         * annotation's are ({@code true}/{@code false} booleans, integers longs, the rest text):
         * {@code quarkus.rabbitmq-subscriber.queues."orders".arguments."x-max-length"=100000}.
         */
        @ConfigDocMapKey("argument-name")
        Map<String, String> arguments();

        /**
         * Adds to or replaces {@code @Subscriber(consumerArguments)}: consumer arguments by name, read as the
         * annotation's are: {@code quarkus.rabbitmq-subscriber.queues."orders".consumer-arguments."x-priority"=10}.
         */
        @ConfigDocMapKey("argument-name")
        Map<String, String> consumerArguments();

        /** Overrides {@code @Subscriber(inbox)}. */
        Optional<Boolean> inbox();

        /**
         * Overrides {@code @Subscriber(partitions)}: how many partition queues. Changing it on a running system moves
         * keys to other partitions: see the Ordered partitions page.
         */
        OptionalInt partitions();

        /** Overrides {@code @Subscriber(partitionKey)}: {@code routing-key}, {@code message-id} or {@code header:<name>}. */
        Optional<String> partitionKey();

        /** {@code false} builds the application without this queue's subscriber: it is neither declared nor consumed. */
        @io.smallrye.config.WithDefault("true")
        boolean enabled();

        /**
         * The kill switch: after {@code failures} handler failures in a row the subscriber pauses for {@code pause}
         * (its consumer cancelled, the messages waiting in RabbitMQ), then resumes; one WARN each way. A downstream
         * outage then spends that many attempts, not every message's cap.
         */
        KillSwitch killSwitch();

        /** Overrides {@code @Subscriber(backoff)}: how long a failed delivery waits before its next attempt. */
        BackoffOverrides backoff();

        /**
         * Overrides {@code @Subscriber(retryDelay)}: the server's delayed retry (a quorum queue, RabbitMQ 4.3 and
         * later).
         */
        RetryDelayOverrides retryDelay();
    }

    interface RetryDelayOverrides {
        /** Overrides {@code @RetryDelay(min)}: the wait after the first failure ({@code 1s}); {@code 0}: none. */
        Optional<String> min();

        /** Overrides {@code @RetryDelay(max)}: the longest wait ({@code 1m}). */
        Optional<String> max();
    }

    interface BackoffOverrides {
        /** Overrides {@code @Backoff(initial)}: the wait after the first failure ({@code 1s}); empty: no back-off. */
        Optional<String> initial();

        /** Overrides {@code @Backoff(multiplier)}: how much longer each wait is than the one before. */
        java.util.OptionalDouble multiplier();

        /** Overrides {@code @Backoff(max)}: the longest wait ({@code 1m}). */
        Optional<String> max();
    }

    interface KillSwitch {
        /** Failures in a row that trip it; unset: no kill switch. */
        OptionalInt failures();

        /** How long it pauses the subscriber. */
        @io.smallrye.config.WithDefault("60s")
        java.time.Duration pause();
    }
}
