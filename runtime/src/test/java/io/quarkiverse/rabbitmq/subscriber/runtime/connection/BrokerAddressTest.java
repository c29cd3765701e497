package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /** The message of a URI that cannot work, which must never hold the password. */
    private static String refusal(String url) {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BrokerAddress.resolve(Optional.of(url), config(Map.of())));
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
        return e.getMessage();
    }

    @Test
    void aPasswordWithUnencodedSpecialCharactersIsReadAsWritten() {
        BrokerAddress address = BrokerAddress.resolve(Optional.of("amqp://app:pa@ss@host"), config(Map.of()));
        assertEquals("amqp://app:pa%40ss@host:5672", address.uri());
        assertEquals("amqp://app:***@host:5672", address.redacted());
        for (String password : List.of("s/e?c#r@et", "se/cret", "se?cret", "se#cret", "sec%ret")) {
            BrokerAddress other = BrokerAddress.resolve(Optional.of("amqp://app:" + password + "@rabbit:5673/orders"),
                    config(Map.of()));
            assertEquals("amqp://app:***@rabbit:5673/orders", other.describe(), password);
            assertFalse(other.describe().contains("secret") || other.toString().contains("cret"), password);
            assertTrue(other.uri().startsWith("amqp://app:") && other.uri().endsWith("@rabbit:5673/orders"));
        }
    }

    @Test
    void aUriThatCannotWorkIsRefusedWithoutEchoingIt() {
        assertTrue(refusal("amqp://app:secret@").contains("names no host"));
        assertTrue(refusal("amqp://app:secret@/vh").contains("names no host"));
        assertTrue(refusal("app:secret@rabbit:5672").contains("is not an AMQP URI"));
        assertTrue(refusal("http://app:secret@rabbit").contains("scheme must be amqp or amqps"));
        assertTrue(refusal("amqp://app:secret@rabbit:56a2").contains("port is not a number"));
        assertTrue(refusal("amqp://app:secret@rabbit:5672/a/b").contains("%2F"));
        assertTrue(refusal("amqp://app:secret@").startsWith("quarkus.rabbitmq-subscriber.url cannot be used"));
    }

    @Test
    void theUsernameAndPasswordKeysWin() {
        BrokerAddress address = BrokerAddress.resolve(Optional.of("amqp://app:old@rabbit/vh"), Optional.of("ops"),
                Optional.of("n:e/w@pass"), config(Map.of()));
        assertEquals("amqp://ops:n%3Ae%2Fw%40pass@rabbit:5672/vh", address.uri());
        assertEquals("amqp://ops:***@rabbit:5672/vh", address.redacted());
        BrokerAddress devServices = BrokerAddress.resolve(Optional.empty(), Optional.empty(), Optional.of("rotated"),
                config(Map.of("rabbitmq-host", "dev", "rabbitmq-password", "old")));
        assertEquals("amqp://guest:rotated@dev:5672", devServices.uri());
    }

    @Test
    void tlsDefaultsTo5671ForTheUriAndTheNodes() {
        BrokerAddress address = BrokerAddress.resolve(Optional.of("amqps://app:secret@rabbit"), config(Map.of()))
                .withNodes(List.of("rabbit-1", "rabbit-2:5675", "[::1]"));
        assertEquals("amqps://app:***@rabbit:5671", address.redacted());
        assertEquals(List.of(new com.rabbitmq.client.Address("rabbit-1", 5671),
                new com.rabbitmq.client.Address("rabbit-2", 5675), new com.rabbitmq.client.Address("[::1]", 5671)),
                address.nodes());
        assertEquals(new com.rabbitmq.client.Address("rabbit-1", 5672), BrokerAddress
                .resolve(Optional.of("amqp://rabbit"), config(Map.of())).withNodes(List.of("rabbit-1")).nodes().get(0));
    }

    @Test
    void anAddressesEntryIsNeverEchoed() {
        BrokerAddress address = BrokerAddress.resolve(Optional.empty(), config(Map.of()));
        for (String entry : List.of("app:secret@rabbit-1:5672", "rabbit-1:secret", "rabbit-1:5672/secret")) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> address.withNodes(List.of("rabbit-0", entry)));
            assertFalse(e.getMessage().contains("secret"), e.getMessage());
            assertTrue(e.getMessage().contains("quarkus.rabbitmq-subscriber.addresses") && e.getMessage()
                    .contains("entry 2"), e.getMessage());
        }
    }

    @Test
    void aUriAmqpClientRefusesIsNotEchoedEither() {
        BrokerAddress address = BrokerAddress.resolve(Optional.of("amqp://app:secret@bad host:5672"), config(Map.of()));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BrokerConnector.connect(address, "test", false));
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
        assertTrue(e.getMessage().contains("amqp://app:***@bad host:5672"), e.getMessage());
        assertEquals(null, e.getCause(), "a cause would print the URI in a stack trace");
    }
}
