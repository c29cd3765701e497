package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An operator deletes the queue under a running subscriber: RabbitMQ cancels the consumer. The runtime logs it,
 * declares the queue again (declare-topology is on) and consumes again.
 */
class ResubscribeTest {

    static final String QUEUE = "t.resubscribe";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setAfterAllCustomizer(ResubscribeTest::deleteQueue)
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, RabbitAdmin.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", RabbitAdmin.URL)
            .setBeforeAllCustomizer(() -> RabbitAdmin.with(admin -> admin.delete(QUEUE)));

    /** After the application stopped, so no consumer of it sees the queues go. */
    static void deleteQueue() {
        RabbitAdmin.with(admin -> admin.delete(QUEUE));
    }

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
