package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.rabbitmq-subscriber.addresses} lists a cluster's nodes; the first here answers nobody (nothing
 * listens on port 5679), so the client goes on to the next, and the subscriber consumes there.
 */
@Tag("wire")
class ClusterAddressesTest {

    static final String QUEUE = "t.cluster-addresses";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE);

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:guest@127.0.0.1")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.addresses", "127.0.0.1:5679,127.0.0.1:" + WireBroker.PORT);

    @Inject
    Handler handler;

    @Test
    void theSecondNodeTakesOver() {
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "hello"));
        await().until(() -> handler.received.contains("hello"));
    }

    public static class Handler {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Subscriber(QUEUE)
        void handle(String body) {
            received.add(body);
        }
    }
}
