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
    /** A subscriber with room for a second delivery while the first is held past its timeout. */
    static final String ROOMY = "t.ct.roomy";

    @RegisterExtension
    @Order(1)
    static final WireBroker wire = WireBroker.queues(QUEUE, ROOMY).needsRabbitMq43().givesUrl();

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

    /**
     * RabbitMQ 4.3.6 keeps the timed-out consumer attached and delivers the message it took back to it again when an ack
     * on the channel makes room (here: the slow handler finishes after the cancel, before the subscriber has closed that
     * channel): a delivery to a consumer tag amqp-client no longer knows, which would close the whole connection
     * ("Unsolicited delivery"). The channel gives it back instead; the connection stays.
     */
    @Test
    void aDeliveryToTheCancelledConsumerIsGivenBackWithoutLosingTheConnection() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> {
                admin.publish(ROOMY, "slow");
                admin.publish(ROOMY, "quick");
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> handler.roomy().contains("slow redelivered=true"));
            await().atMost(Duration.ofSeconds(30)).until(() -> RabbitAdmin.withResult(admin -> admin.depth(ROOMY)) == 0);
            assertTrue(handler.roomy().contains("quick redelivered=false"), handler.roomy().toString());
            assertEquals(List.of(), logs.warnings().stream().filter(line -> line.contains("Lost the connection"))
                    .toList(), "the connection stays");
        } finally {
            handler.releaseRoomy();
        }
    }

    @ApplicationScoped
    public static class Handler {
        private final List<String> seen = new CopyOnWriteArrayList<>();
        private final List<String> roomy = new CopyOnWriteArrayList<>();
        private final CountDownLatch released = new CountDownLatch(1);
        private final CountDownLatch roomyReleased = new CountDownLatch(1);

        List<String> seen() {
            return seen;
        }

        List<String> roomy() {
            return roomy;
        }

        void release() {
            released.countDown();
        }

        void releaseRoomy() {
            roomyReleased.countDown();
        }

        @Subscriber(value = ROOMY, type = QueueType.QUORUM, prefetch = 2, consumerArguments = "x-consumer-timeout=1000")
        void roomy(String body, Delivery delivery) throws InterruptedException {
            roomy.add(body + " redelivered=" + delivery.redelivered());
            if (body.equals("slow") && !delivery.redelivered()) {
                // Past the timeout, but done (and acked) before the subscriber closes the cancelled consumer's channel.
                roomyReleased.await(1500, TimeUnit.MILLISECONDS);
            }
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
