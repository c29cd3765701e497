package org.acme.subscriber.test.security;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.TlsBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code tls.trust-all}, for development: no trust store, a host name the certificate does not carry, and it connects,
 * with a WARN for each connection (the subscribers' and the publisher's).
 */
class TlsTrustAllTest {

    @RegisterExtension
    @Order(1)
    static final TlsBroker broker = TlsBroker.queues("t.tls.trust-all");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqps://guest:guest@127.0.0.1:" + TlsBroker.PORT)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.tls.trust-all", "true")
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                    && String.valueOf(record.getMessage()).contains("for development only"))
            .assertLogRecords(records -> {
                if (records.size() < 2) {
                    throw new AssertionError("expected a WARN for each connection, got " + records.size());
                }
            });

    @Inject
    Handlers handlers;

    @Inject
    RabbitPublisher publisher;

    @Test
    void connectsWithoutVerifyingAndWarns() throws Exception {
        // The publisher's connection, opened by this send, warns too.
        publisher.sendConfirmedAndAwait("t.tls.trust-all", "unverified");
        await().atMost(Duration.ofSeconds(20)).until(() -> handlers.received().size() == 1);
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> received = new CopyOnWriteArrayList<>();

        List<String> received() {
            return received;
        }

        @Subscriber("t.tls.trust-all")
        void receive(String body) {
            received.add(body);
        }
    }
}
