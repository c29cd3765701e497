package org.acme.subscriber.test.security;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.TlsBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A client certificate from the TLS registry's key store, and the {@code EXTERNAL} login: no password, the broker
 * takes the user from the certificate's common name ({@code tls-client}, a user without a password).
 */
class TlsClientCertificateTest extends BrokerScenarios {

    static final String USER = "tls-client";

    @RegisterExtension
    @Order(1)
    static final TlsBroker broker = TlsBroker.queues("t.tls.external");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqps://localhost:" + TlsBroker.PORT)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.sasl-mechanism", "external")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.tls-configuration-name", "rabbit")
            .overrideConfigKey("quarkus.tls.rabbit.trust-store.pem.certs", TlsBroker.file("ca.pem"))
            .overrideConfigKey("quarkus.tls.rabbit.key-store.pem.client.cert", TlsBroker.file("client.pem"))
            .overrideConfigKey("quarkus.tls.rabbit.key-store.pem.client.key", TlsBroker.file("client.key"))
            .setBeforeAllCustomizer(TlsClientCertificateTest::createUser);

    static void createUser() {
        try {
            try {
                TlsBroker.rabbitmqctl("delete_user", USER);
            } catch (IllegalStateException e) {
                // not there
            }
            TlsBroker.rabbitmqctl("add_user", USER, "unused-" + System.nanoTime());
            TlsBroker.rabbitmqctl("clear_password", USER);
            TlsBroker.rabbitmqctl("set_permissions", "-p", "/", USER, "^t\\.tls\\.", "^(amq\\.default|t\\.tls\\..*)$",
                    "^t\\.tls\\.");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    static void deleteUser() throws Exception {
        TlsBroker.rabbitmqctl("delete_user", USER);
    }

    @Inject
    Handlers handlers;

    @Test
    void logsInWithTheCertificate() throws Exception {
        publish("t.tls.external", "by-certificate");
        await().atMost(Duration.ofSeconds(20)).until(() -> handlers.received().size() == 1);
        String connections = TlsBroker.rabbitmqctl("list_connections", "user", "auth_mechanism", "ssl");
        assertTrue(connections.lines().anyMatch(line -> line.contains(USER) && line.contains("EXTERNAL")
                && line.contains("true")), connections);
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> received = new CopyOnWriteArrayList<>();

        List<String> received() {
            return received;
        }

        @Subscriber("t.tls.external")
        void receive(String body) {
            received.add(body);
        }
    }
}
