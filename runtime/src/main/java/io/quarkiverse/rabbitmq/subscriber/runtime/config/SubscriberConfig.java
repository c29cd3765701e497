package io.quarkiverse.rabbitmq.subscriber.runtime.config;

import java.time.Duration;
import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Run-time configuration of the RabbitMQ subscribers.
 */
@ConfigMapping(prefix = "quarkus.rabbitmq-subscriber")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface SubscriberConfig {

    /**
     * The broker to connect to, as an AMQP URI ({@code amqp://user:password@host:port/vhost}). When absent, the
     * {@code rabbitmq-host}, {@code rabbitmq-port}, {@code rabbitmq-username} and {@code rabbitmq-password} properties
     * (set by Quarkus's RabbitMQ Dev Services) are used, then {@code amqp://guest:guest@localhost:5672}.
     */
    Optional<String> url();

    /**
     * How many unsettled deliveries each subscriber may hold at once ({@code basic.qos}), unless its
     * {@code @Subscriber(prefetch)} says otherwise.
     */
    @WithDefault("250")
    int prefetch();

    /**
     * On shutdown, how long to wait for handlers in flight to finish and their deliveries to be settled before the
     * channels close (whatever is still unsettled then is requeued by RabbitMQ).
     */
    @WithDefault("30s")
    Duration shutdownTimeout();

    /**
     * The header the runtime reads the delivery count from ({@code Delivery.retryCount()}). Change it to share the
     * count with services that use another header name.
     */
    @WithDefault("x-retry-count")
    String retryCountHeader();

    /**
     * The connection name shown in the RabbitMQ management UI and {@code rabbitmqctl list_connections}.
     */
    @WithDefault("quarkus-rabbitmq-subscriber")
    String connectionName();
}
