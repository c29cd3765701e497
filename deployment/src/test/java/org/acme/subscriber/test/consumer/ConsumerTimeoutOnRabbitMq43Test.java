package org.acme.subscriber.test.consumer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Consumer arguments on RabbitMQ 4.3 (skipped on an older broker): the subscriber consumes with its own
 * {@code x-consumer-timeout} of 1 s and an {@code x-priority}. A handler holds its first delivery for longer: the
 * server cancels the consumer and gives the delivery back; the subscriber says it was a consumer timeout (the queue
 * still exists), in one ERROR, consumes again, and the message is handled on its redelivery.
 */
@Tag("wire")
class ConsumerTimeoutOnRabbitMq43Test {

    static final String QUEUE = "t.ct.orders";

    @RegisterExtension
    @Order(1)
    static final WireBroker wire = WireBroker.queues(QUEUE).needsRabbitMq43().givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, CapturedLogs.class));

    @Inject
    Handler handler;

    @Test
    void aConsumerTimeoutIsReportedAsSuchAndTheSubscriberConsumesAgain() throws Exception {
        String consumers = RabbitAdmin.rabbitmqctl("list_consumers", "queue_name", "arguments");
        assertTrue(consumers.contains(QUEUE) && consumers.contains("x-priority")
                && consumers.contains("x-consumer-timeout"), consumers);
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> admin.publish(QUEUE, "order-1"));
            await().atMost(Duration.ofSeconds(30)).until(() -> handler.seen().size() == 2);
            await().atMost(Duration.ofSeconds(30)).until(() -> RabbitAdmin.withResult(admin -> admin.depth(QUEUE)) == 0
                    && logs.infos().stream().anyMatch(line -> line.contains("consumes queue '" + QUEUE + "' again")));
            List<String> errors = logs.errors().stream().filter(line -> line.contains(QUEUE)).toList();
            assertEquals(1, errors.size(), errors.toString());
            assertTrue(errors.get(0).contains("the broker cancelled its consumer while queue '" + QUEUE + "' still "
                    + "exists: on RabbitMQ 4.3 a consumer timeout"), errors.get(0));
            assertEquals(List.of("order-1 redelivered=false", "order-1 redelivered=true"), handler.seen());
        } finally {
            handler.release();
        }
    }

    @ApplicationScoped
    public static class Handler {
        private final List<String> seen = new CopyOnWriteArrayList<>();
        private final CountDownLatch released = new CountDownLatch(1);

        List<String> seen() {
            return seen;
        }

        void release() {
            released.countDown();
        }

        @Subscriber(value = QUEUE, type = QueueType.QUORUM, consumerArguments = { "x-consumer-timeout=1000",
                "x-priority=5" })
        void handle(String body, Delivery delivery) throws InterruptedException {
            seen.add(body + " redelivered=" + delivery.redelivered());
            if (!delivery.redelivered()) {
                // Held past the consumer's timeout: the server cancels the consumer and gives the delivery back.
                released.await(3, TimeUnit.SECONDS);
            }
        }
    }
}
