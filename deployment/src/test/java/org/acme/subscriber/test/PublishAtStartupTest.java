package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An application that publishes from its own startup observer finds the queues declared already (a confirmed send to
 * a queue that does not exist yet would fail as unroutable); its subscriber consumes what it sent.
 */
@Tag("wire")
class PublishAtStartupTest {

    static final String QUEUE = "t.startup.publish";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class));

    @Inject
    Orders orders;

    @Test
    void aMessageSentAtStartupIsConsumed() {
        await().until(() -> orders.received.contains("sent at startup"));
    }

    public static class Orders {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Inject
        RabbitPublisher publisher;

        void onStart(@Observes StartupEvent event) {
            publisher.sendConfirmedAndAwait(QUEUE, "sent at startup");
        }

        @Subscriber(QUEUE)
        void handle(String body) {
            received.add(body);
        }
    }
}
