package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
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
 * An operator deletes the queue under a running subscriber: RabbitMQ cancels the consumer. The runtime logs it,
 * declares the queue again (declare-topology is on) and consumes again.
 */
@Tag("wire")
class ResubscribeTest {

    static final String QUEUE = "t.resubscribe";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class));

    @Inject
    Handler handler;

    @Test
    void consumesAgainAfterTheQueueWasDeletedUnderIt() {
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "before"));
        await().until(() -> handler.received.contains("before"));
        RabbitAdmin.with(admin -> admin.delete(QUEUE));
        RabbitAdmin.with(admin -> await().atMost(Duration.ofSeconds(15))
                .until(() -> admin.exists(QUEUE) && admin.consumers(QUEUE) == 1));
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "after"));
        await().until(() -> handler.received.contains("after"));
    }

    public static class Handler {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Subscriber(QUEUE)
        void handle(String body) {
            received.add(body);
        }
    }
}
