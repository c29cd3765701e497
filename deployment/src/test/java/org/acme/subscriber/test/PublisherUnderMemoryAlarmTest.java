package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.ExclusiveResource;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * RabbitMQ runs out of memory (the test sets the watermark so low that the alarm goes off at once, and restores it):
 * it blocks every connection that publishes. A confirmed send fails after the configured timeout with a message that
 * says why, instead of waiting forever; and because the publisher has a connection of its own, the subscribers keep
 * acking and consuming meanwhile.
 */
@Tag("wire")
@Tag("serial")
class PublisherUnderMemoryAlarmTest {

    static final String QUEUE = "t.publisher.alarm";
    static final int MESSAGES = 20;

    /**
     * Changes what the whole broker does (or times a fault): never beside another such class, whichever JVM runs it. The
     * serial phase runs these with the tests that use no broker, in several JVMs.
     */
    @RegisterExtension
    @Order(0)
    static final ExclusiveResource brokerWide = ExclusiveResource.named("broker-wide");

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setAfterAllCustomizer(PublisherUnderMemoryAlarmTest::cleanUp)
            .withApplicationRoot(jar -> jar.addClasses(Inbox.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.publisher.confirm-timeout", "2s");

    /** After the application stopped: the default watermark again, whatever the test left. */
    static void cleanUp() {
        lowMemoryAlarm(false);
    }

    static void lowMemoryAlarm(boolean on) {
        try {
            // 0.4 is RabbitMQ's default watermark.
            RabbitAdmin.rabbitmqctl("set_vm_memory_high_watermark", on ? "0.0000001" : "0.4");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static boolean alarmOn() throws Exception {
        return RabbitAdmin.rabbitmqctl("eval", "rabbit_alarm:get_alarms().").contains("memory");
    }

    @Inject
    RabbitPublisher publisher;

    @Inject
    Inbox inbox;

    @Inject
    SubscriberStatus status;

    @Test
    void aConfirmedSendTimesOutWhileConsumersKeepConsuming() throws Exception {
        RabbitAdmin.with(admin -> {
            for (int i = 0; i < MESSAGES; i++) {
                admin.publish(QUEUE, "m-" + i);
            }
        });
        // The handler holds the first delivery: the rest waits in the queue until the alarm is on.
        await().until(() -> inbox.bodies.size() == 1);
        try {
            lowMemoryAlarm(true);
            await().until(PublisherUnderMemoryAlarmTest::alarmOn);

            long started = System.nanoTime();
            CompletableFuture<Void> send = publisher.sendConfirmed(QUEUE, "during the alarm").subscribeAsCompletionStage();
            ExecutionException failure = assertThrows(ExecutionException.class, () -> send.get(20, TimeUnit.SECONDS));
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertInstanceOf(TimeoutException.class, failure.getCause());
            String message = failure.getCause().getMessage();
            assertTrue(message.contains("did not confirm it within PT2S"), message);
            assertTrue(message.contains("confirm-timeout"), message);
            assertTrue(message.contains("routing key '" + QUEUE + "'"), message);
            assertTrue(tookMillis >= 1_900, "failed after the timeout, not before: " + tookMillis + " ms");
            // Readiness says so while the alarm lasts.
            await().until(() -> status.notReady().getOrDefault("publisher", "").contains("RabbitMQ blocks publishing"));

            // Still under the alarm: the subscribers' connection acks and gets every other message.
            inbox.release.countDown();
            await().atMost(Duration.ofSeconds(20)).until(() -> inbox.bodies.size() == MESSAGES);
            assertTrue(alarmOn());
            RabbitAdmin.with(admin -> await().until(() -> admin.depth(QUEUE) == 0));
        } finally {
            lowMemoryAlarm(false);
        }
        // Once the alarm clears, the broker reads the blocked connection again: the send that timed out arrives late.
        await().atMost(Duration.ofSeconds(30)).until(() -> inbox.bodies.contains("during the alarm"));
        assertEquals(MESSAGES + 1, inbox.bodies.size());
    }

    public static class Inbox {
        final List<String> bodies = new CopyOnWriteArrayList<>();
        final CountDownLatch release = new CountDownLatch(1);

        /** One delivery at a time: holding the first holds back the others. */
        @Subscriber(value = QUEUE, prefetch = 1)
        void receive(String body) throws InterruptedException {
            bodies.add(body);
            if (bodies.size() == 1) {
                release.await(60, TimeUnit.SECONDS);
            }
        }
    }
}
