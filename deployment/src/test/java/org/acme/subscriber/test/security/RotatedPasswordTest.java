package org.acme.subscriber.test.security;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import org.acme.subscriber.test.BrokerScenarios;
import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.credentials.CredentialsProvider;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A password rotated on the broker while the service runs: the credentials provider is read at every reconnection.
 * Until it has the new password, each reconnection is refused, readiness says so (never the password) and the WARN is
 * paced; once it has it, the subscriber is back without a restart.
 */
@Tag("wire")
class RotatedPasswordTest extends BrokerScenarios {

    static final String USER = "t-rotate";
    static final String CONNECTION = "rotated-password-test";
    static final String QUEUE = "t.rotate.orders";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).before(admin -> {
        try {
            RabbitAdmin.rabbitmqctl("delete_user", USER);
        } catch (IllegalStateException e) {
            // not there
        }
        RabbitAdmin.rabbitmqctl("add_user", USER, "first-Pa55:@/");
        RabbitAdmin.rabbitmqctl("set_permissions", "-p", "/", USER, ".*", ".*", ".*");
    });

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Vault.class, CapturedLogs.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://127.0.0.1:" + WireBroker.PORT)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.credentials-provider", "rabbitmq")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.credentials-provider-name", "vault")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "200ms")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.max-delay", "1s");

    @AfterAll
    static void deleteUser() throws Exception {
        RabbitAdmin.rabbitmqctl("delete_user", USER);
    }

    @Inject
    Handlers handlers;

    @Inject
    @Named("vault")
    Vault vault;

    @Test
    void theSubscriberIsBackWithTheRotatedPassword() throws Exception {
        publish(QUEUE, "before");
        await().atMost(Duration.ofSeconds(20)).until(() -> handlers.received().size() == 1);

        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.rabbitmqctl("change_password", USER, "second-Pa55%x");
            List<String> connections = RabbitAdmin.connectionsNamed(CONNECTION);
            RabbitAdmin.rabbitmqctl("close_connection",
                    connections.get(0).substring(0, connections.get(0).indexOf('\t')), "rotating the password");
            // The provider still has the old password: every reconnection is refused, and readiness says why.
            await().atMost(Duration.ofSeconds(20)).until(() -> session.downBecause().orElse("")
                    .contains("the broker refused the login of user '" + USER + "'"));
            // Several attempts, one WARN: the next comes 30 s later at the earliest.
            await().atMost(Duration.ofSeconds(10)).until(() -> logs.infos().size() + logs.warnings().size() > 0);
            vault.rotate("second-Pa55%x");
            await().atMost(Duration.ofSeconds(20)).until(() -> session.downBecause().isEmpty());
            List<String> refusals = logs.warnings().stream().filter(line -> line.contains("refused the login"))
                    .toList();
            assertEquals(1, refusals.size(), String.join("\n", logs.warnings()));
            String all = String.join("\n", logs.warnings()) + String.join("\n", logs.errors());
            assertFalse(all.contains("Pa55"), all);
        }
        publish(QUEUE, "after");
        await().atMost(Duration.ofSeconds(20)).until(() -> handlers.received().size() == 2);
        assertEquals(List.of("before", "after"), handlers.received());
    }

    /** Stands for a vault: the application's CredentialsProvider. */
    @ApplicationScoped
    @Named("vault")
    public static class Vault implements CredentialsProvider {
        private volatile String password = "first-Pa55:@/";

        void rotate(String password) {
            this.password = password;
        }

        @Override
        public Map<String, String> getCredentials(String credentialsProviderName) {
            return Map.of(USER_PROPERTY_NAME, USER, PASSWORD_PROPERTY_NAME, password);
        }
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> received = new CopyOnWriteArrayList<>();

        List<String> received() {
            return received;
        }

        @Subscriber(QUEUE)
        void receive(String body) {
            received.add(body);
        }
    }
}
