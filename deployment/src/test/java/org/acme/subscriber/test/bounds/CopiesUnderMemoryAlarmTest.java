package org.acme.subscriber.test.bounds;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.ExclusiveResource;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * RabbitMQ raises a memory alarm while one subscriber retries (publishes a copy) and another only acks. RabbitMQ
 * stops reading every connection that publishes during an alarm: were the copy published on the subscribers' shared
 * connection, the bystander's acks would wait there until the alarm cleared, and it would stop receiving. Copies go on
 * the publishing connection instead, and the original waits for its copy's confirm: the bystander consumes everything
 * during the alarm, the retried message waits (unacked, not lost), and once the alarm clears it goes on to its cap and
 * its dead-letter queue, once.
 */
@Tag("wire")
@Tag("serial")
class CopiesUnderMemoryAlarmTest {

    static final String RETRIED = "t.alarm.copies";
    static final String DEAD = "t.alarm.copies.dead";
    static final String BYSTANDER = "t.alarm.bystander";
    static final String CONNECTION = "t-alarm-copies";
    static final int BYSTANDER_MESSAGES = 20;

    /**
     * Changes what the whole broker does (or times a fault): never beside another such class, whichever JVM runs it. The
     * serial phase runs these with the tests that use no broker, in several JVMs.
     */
    @RegisterExtension
    @Order(0)
    static final ExclusiveResource brokerWide = ExclusiveResource.named("broker-wide");

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(RETRIED, DEAD, BYSTANDER).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setAfterAllCustomizer(() -> lowMemoryAlarm(false))
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, CopiesUnderMemoryAlarmTest.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION);

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
    Handlers handlers;

    @Test
    void aBystanderKeepsAckingWhileACopyWaitsForTheAlarmToClear() throws Exception {
        RabbitAdmin.with(admin -> {
            admin.publish(RETRIED, "retried");
            for (int i = 0; i < BYSTANDER_MESSAGES; i++) {
                admin.publish(BYSTANDER, "b-" + i);
            }
        });
        // Both handlers hold their first delivery (prefetch 1: the rest waits in the queues) until the alarm is on.
        await().until(() -> handlers.attempts() == 1 && handlers.bystander().size() == 1);
        try {
            lowMemoryAlarm(true);
            await().until(CopiesUnderMemoryAlarmTest::alarmOn);

            // The retry publishes a copy: the connection it goes on is blocked.
            handlers.releaseRetried();
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> RabbitAdmin.connectionStates(CONNECTION + "-publisher").contains("blocked"));

            // The subscribers' connection published nothing: it still acks, and the bystander gets every message.
            handlers.releaseBystander();
            await().atMost(Duration.ofSeconds(20)).until(() -> handlers.bystander().size() == BYSTANDER_MESSAGES);
            assertFalse(RabbitAdmin.connectionStates(CONNECTION).contains("blocked"),
                    RabbitAdmin.connectionStates(CONNECTION).toString());
            RabbitAdmin.with(admin -> await().until(() -> admin.depth(BYSTANDER) == 0));
            // The retried message waits for its copy's confirm: handled once so far, still on its queue, unacked.
            assertEquals(1, handlers.attempts());
            assertTrue(alarmOn());
        } finally {
            lowMemoryAlarm(false);
        }
        // The broker reads the publishing connection again: the copy lands, the original is acked, and the message
        // goes on to its cap (3 deliveries) and its dead-letter queue, once.
        await().atMost(Duration.ofSeconds(30)).until(() -> handlers.dead().size() == 1);
        assertEquals(3, handlers.attempts());
        RabbitAdmin.with(admin -> await().until(() -> admin.depth(RETRIED) == 0 && admin.depth(DEAD) == 0));
        assertEquals(List.of("retried"), handlers.dead());
    }

    public static class Handlers {
        private final AtomicInteger attempts = new AtomicInteger();
        private final List<String> bystander = new CopyOnWriteArrayList<>();
        private final List<String> dead = new CopyOnWriteArrayList<>();
        private final CountDownLatch retriedRelease = new CountDownLatch(1);
        private final CountDownLatch bystanderRelease = new CountDownLatch(1);

        @Subscriber(value = RETRIED, prefetch = 1, maxAttempts = 3, deadLetter = DEAD)
        Outcome retried(String body) throws InterruptedException {
            if (attempts.incrementAndGet() == 1) {
                retriedRelease.await(60, TimeUnit.SECONDS);
            }
            return Outcome.retry();
        }

        @Subscriber(value = BYSTANDER, prefetch = 1)
        void bystander(String body) throws InterruptedException {
            bystander.add(body);
            if (bystander.size() == 1) {
                bystanderRelease.await(60, TimeUnit.SECONDS);
            }
        }

        @Subscriber(DEAD)
        void dead(String body) {
            dead.add(body);
        }

        int attempts() {
            return attempts.get();
        }

        List<String> bystander() {
            return bystander;
        }

        List<String> dead() {
            return dead;
        }

        void releaseRetried() {
            retriedRelease.countDown();
        }

        void releaseBystander() {
            bystanderRelease.countDown();
        }
    }
}
