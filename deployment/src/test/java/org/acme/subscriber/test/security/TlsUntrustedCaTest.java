package org.acme.subscriber.test.security;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.TlsBroker;
import io.quarkus.test.QuarkusUnitTest;

/** A trust store without the broker's CA: startup stops, saying the certificate is not trusted, and where. */
class TlsUntrustedCaTest {

    @RegisterExtension
    @Order(1)
    static final TlsBroker broker = TlsBroker.queues("t.tls.untrusted");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqps://guest:guest@localhost:" + TlsBroker.PORT)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.tls-configuration-name", "rabbit")
            .overrideConfigKey("quarkus.tls.rabbit.trust-store.pem.certs", TlsBroker.file("other-ca.pem"))
            .assertException(Failures.mentions("Cannot connect to RabbitMQ at amqps://guest:***@localhost:"
                    + TlsBroker.PORT, "TLS configuration 'rabbit'", "the broker's certificate is not trusted"));

    @Test
    void startupFails() {
        fail("startup should have failed");
    }

    public static class Handlers {
        @Subscriber("t.tls.untrusted")
        void receive(String body) {
        }
    }
}
