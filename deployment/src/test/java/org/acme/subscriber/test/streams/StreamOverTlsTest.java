package org.acme.subscriber.test.streams;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.TlsBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A stream read over TLS with the broker's TLS settings: the stream protocol's TLS listener (RabbitMQ 4.0.5 from
 * {@code .ci/rabbitmq4}, 5563, advertising {@code localhost}, the name the broker's certificate carries), the CA from
 * Quarkus's TLS registry, the host name verified, and the EXTERNAL login with the client certificate. The virtual host
 * is open to the certificate's user only ({@code guest} has no permission there), so reading the stream proves the
 * stream connection logged in with the certificate, as the AMQP connection does.
 */
@Tag("stream")
class StreamOverTlsTest extends BrokerScenarios {

    static final String USER = "tls-client";
    static final String VHOST = "t-tls-streams";
    static final String STREAM = "t.tls.stream";

    @RegisterExtension
    @Order(1)
    static final TlsBroker broker = TlsBroker.queues().needsStreams();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqps://localhost:" + TlsBroker.PORT + "/" + VHOST)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.stream-port", String.valueOf(TlsBroker.STREAM_PORT))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.sasl-mechanism", "external")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.tls-configuration-name", "rabbit")
            .overrideConfigKey("quarkus.tls.rabbit.trust-store.pem.certs", TlsBroker.file("ca.pem"))
            .overrideConfigKey("quarkus.tls.rabbit.key-store.pem.client.cert", TlsBroker.file("client.pem"))
            .overrideConfigKey("quarkus.tls.rabbit.key-store.pem.client.key", TlsBroker.file("client.key"))
            .setBeforeAllCustomizer(StreamOverTlsTest::createUserAndVirtualHost);

    static void createUserAndVirtualHost() {
        try {
            deleteUserAndVirtualHost();
            TlsBroker.rabbitmqctl("add_vhost", VHOST);
            TlsBroker.rabbitmqctl("add_user", USER, "unused-" + System.nanoTime());
            TlsBroker.rabbitmqctl("clear_password", USER);
            TlsBroker.rabbitmqctl("set_permissions", "-p", VHOST, USER, ".*", ".*", ".*");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    static void deleteUserAndVirtualHost() {
        for (String[] command : List.of(new String[] { "delete_user", USER }, new String[] { "delete_vhost", VHOST })) {
            try {
                TlsBroker.rabbitmqctl(command);
            } catch (Exception e) {
                // not there
            }
        }
    }

    @Inject
    Handlers handlers;

    @Test
    void readsTheStreamOverTlsWithTheCertificatesLogin() throws Exception {
        publish(STREAM, "first");
        publish(STREAM, "second");
        await().atMost(Duration.ofSeconds(30)).until(() -> handlers.received().size() == 2);
        // In order; the offsets are the log's (RabbitMQ's own entries, stored offsets among them, take offsets too).
        assertEquals(List.of("first", "second"), handlers.received().stream().map(line -> line.split("@")[0]).toList());
        assertEquals("first@0", handlers.received().get(0));
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> received = new CopyOnWriteArrayList<>();

        List<String> received() {
            return received;
        }

        @Subscriber(value = STREAM, type = QueueType.STREAM, offset = "first")
        void receive(String body, Delivery delivery) {
            received.add(body + "@" + delivery.offset());
        }
    }
}
