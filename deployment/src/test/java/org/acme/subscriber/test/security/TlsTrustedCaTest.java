package org.acme.subscriber.test.security;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.TlsBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * TLS through Quarkus's TLS registry: a trust store holding the CA that signed the broker's certificate, and the host
 * name the certificate carries. The subscriber consumes over it.
 */
class TlsTrustedCaTest extends BrokerScenarios {

    @RegisterExtension
    @Order(1)
    static final TlsBroker broker = TlsBroker.queues("t.tls.trusted");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqps://guest:guest@localhost:" + TlsBroker.PORT)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.tls-configuration-name", "rabbit")
            .overrideConfigKey("quarkus.tls.rabbit.trust-store.pem.certs", TlsBroker.file("ca.pem"));

    @Inject
    Handlers handlers;

    @Test
    void consumesOverVerifiedTls() throws Exception {
        publish("t.tls.trusted", "over-tls");
        await().atMost(Duration.ofSeconds(20)).until(() -> handlers.received().size() == 1);
        assertEquals(List.of("over-tls"), handlers.received());
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> received = new CopyOnWriteArrayList<>();

        List<String> received() {
            return received;
        }

        @Subscriber("t.tls.trusted")
        void receive(String body) {
            received.add(body);
        }
    }
}
