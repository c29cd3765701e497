package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;

/**
 * Where the runtime connects: our url, else what Quarkus's RabbitMQ Dev Services published (rabbitmq-host and
 * friends), else the local default. Dev Services themselves need a container runtime, so their decision is tested
 * here, on the keys they set.
 */
class BrokerAddressTest {

    private static Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(properties, "test", 500)).build();
    }

    @Test
    void ourUrlWins() {
        BrokerAddress address = BrokerAddress.resolve(Optional.of("amqp://u:p@broker:5673/vh"),
                config(Map.of("rabbitmq-host", "devservices", "rabbitmq-port", "32768")));
        assertEquals("amqp://u:p@broker:5673/vh", address.uri());
        assertEquals("amqp://u:***@broker:5673/vh", address.redacted());
    }

    @Test
    void devServicesKeysAreTheFallback() {
        BrokerAddress address = BrokerAddress.resolve(Optional.empty(), config(Map.of("rabbitmq-host", "localhost",
                "rabbitmq-port", "32768", "rabbitmq-username", "guest", "rabbitmq-password", "s3cr:t")));
        assertEquals("amqp://guest:s3cr%3At@localhost:32768", address.uri());
    }

    @Test
    void devServicesKeysWithDefaults() {
        BrokerAddress address = BrokerAddress.resolve(Optional.empty(), config(Map.of("rabbitmq-host", "rabbit")));
        assertEquals("amqp://guest:guest@rabbit:5672", address.uri());
    }

    @Test
    void localDefaultLast() {
        assertEquals("amqp://guest:guest@localhost:5672", BrokerAddress.resolve(Optional.empty(), config(Map.of())).uri());
        assertEquals("amqp://guest:guest@localhost:5672", BrokerAddress.resolve(Optional.of(" "), config(Map.of())).uri());
    }

    @Test
    void aClusterIsReachedThroughItsNodes() {
        BrokerAddress address = BrokerAddress.resolve(Optional.of("amqp://app:secret@ignored:5672/orders"),
                config(Map.of())).withNodes(List.of("rabbit-1:5673", " rabbit-2 ", ""));
        assertEquals(List.of(new com.rabbitmq.client.Address("rabbit-1", 5673),
                new com.rabbitmq.client.Address("rabbit-2", 5672)), address.nodes());
        assertEquals("amqp://app:***@ignored:5672/orders through [rabbit-1:5673, rabbit-2:5672]", address.describe());
    }
}
