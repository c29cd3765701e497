package io.quarkiverse.rabbitmq.subscriber;

/**
 * The in-process broker under its first name.
 *
 * @deprecated the test API moved out of the production package: inject
 *             {@link io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker}, the same bean. This name stays until a
 *             first release, so that tests written against it still compile and inject.
 */
@Deprecated(forRemoval = true)
public interface InProcessBroker extends io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker {
}
