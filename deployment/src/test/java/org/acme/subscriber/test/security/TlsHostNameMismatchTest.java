package org.acme.subscriber.test.security;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.TlsBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The broker's certificate is trusted but issued for {@code localhost}: connecting to {@code 127.0.0.1} is refused by
 * host-name verification, which is always on.
 */
class TlsHostNameMismatchTest {

    @RegisterExtension
    @Order(1)
    static final TlsBroker broker = TlsBroker.queues("t.tls.mismatch");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqps://guest:guest@127.0.0.1:" + TlsBroker.PORT)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.tls-configuration-name", "rabbit")
            .overrideConfigKey("quarkus.tls.rabbit.trust-store.pem.certs", TlsBroker.file("ca.pem"))
            .assertException(Failures.mentions("Cannot connect to RabbitMQ at amqps://guest:***@127.0.0.1:"
                    + TlsBroker.PORT, "the broker's certificate does not name the host '127.0.0.1:" + TlsBroker.PORT));

    @Test
    void startupFails() {
        fail("startup should have failed");
    }

    public static class Handlers {
        @Subscriber("t.tls.mismatch")
        void receive(String body) {
        }
    }
}
