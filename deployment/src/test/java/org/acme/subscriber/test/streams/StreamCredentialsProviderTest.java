package org.acme.subscriber.test.streams;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.credentials.CredentialsProvider;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A stream read with the user and password of the application's {@code CredentialsProvider}, as the AMQP connection
 * logs in: the url names no user, and the virtual host is open to the provider's user only ({@code guest} has no
 * permission there), so reading the stream proves the stream connection asked the provider.
 */
@Tag("wire")
@Tag("stream")
class StreamCredentialsProviderTest extends BrokerScenarios {

    static final String USER = "t-stream-vault";
    static final String PASSWORD = "Str3am:@/%pass";
    static final String VHOST = "t-stream-vault";
    static final String STREAM = "t.stream.vaulted";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues().needsStreams().before(admin -> {
        deleteUserAndVirtualHost();
        RabbitAdmin.rabbitmqctl("add_vhost", VHOST);
        RabbitAdmin.rabbitmqctl("add_user", USER, PASSWORD);
        RabbitAdmin.rabbitmqctl("set_permissions", "-p", VHOST, USER, ".*", ".*", ".*");
    });

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Vault.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://127.0.0.1:" + WireBroker.PORT + "/" + VHOST)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.stream-port", String.valueOf(WireBroker.STREAM_PORT))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.credentials-provider", "rabbitmq")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.credentials-provider-name", "stream-vault");

    @AfterAll
    static void deleteUserAndVirtualHost() {
        for (String[] command : List.of(new String[] { "delete_user", USER }, new String[] { "delete_vhost", VHOST })) {
            try {
                RabbitAdmin.rabbitmqctl(command);
            } catch (Exception e) {
                // not there
            }
        }
    }

    @Inject
    Handlers handlers;

    @Test
    void readsTheStreamAsTheProvidersUser() throws Exception {
        publish(STREAM, "vaulted");
        await().atMost(Duration.ofSeconds(30)).until(() -> handlers.received().size() == 1);
        assertEquals(List.of("vaulted"), handlers.received());
    }

    /** Stands for a vault: the application's CredentialsProvider. */
    @ApplicationScoped
    @Named("stream-vault")
    public static class Vault implements CredentialsProvider {
        @Override
        public Map<String, String> getCredentials(String credentialsProviderName) {
            return Map.of(USER_PROPERTY_NAME, USER, PASSWORD_PROPERTY_NAME, PASSWORD);
        }
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> received = new CopyOnWriteArrayList<>();

        List<String> received() {
            return received;
        }

        @Subscriber(value = STREAM, type = QueueType.STREAM, offset = "first")
        void receive(String body) {
            received.add(body);
        }
    }
}
