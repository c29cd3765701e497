package org.acme.subscriber.test.bounds;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * 300 messages of 100 KB, a prefetch of 100 (10 MB in flight at once) and {@code max-unsettled-bytes=1M}. The first
 * burst is what RabbitMQ sent before anything was known of the sizes; at the bound the subscriber holds back (one WARN),
 * and once half is settled it consumes again with a prefetch of 10 (1 MB of such bodies): from then on the bytes
 * unsettled stay within about twice the bound. Every message is handled once, none is lost, the connection never
 * closes.
 */
@Tag("wire")
class UnsettledBytesBoundTest {

    static final String QUEUE = "t.unsettled.bytes";
    static final int MESSAGES = 300;
    static final int BODY = 100_000;
    static final long BOUND = 1024 * 1024;

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).before(admin -> {
        admin.declare(QUEUE, Map.of());
        admin.confirmPublishes();
        for (int i = 0; i < MESSAGES; i++) {
            admin.publishRaw(QUEUE, new byte[BODY], new AMQP.BasicProperties.Builder().messageId("m-" + i).build());
        }
        admin.awaitConfirms();
    }).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.max-unsettled-bytes", "1M")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.prefetch", "100")
            .setLogRecordPredicate(record -> String.valueOf(record.getMessage()).contains("stops taking deliveries"))
            .assertLogRecords(records -> assertEquals(1, records.size(), "one WARN"));

    @Inject
    SubscriberStatus status;

    @Inject
    Handlers handlers;

    @Test
    void afterTheFirstBurstTheBytesInFlightStayNearTheBound() throws Exception {
        // The handler holds the first delivery: the first burst piles up to the bound and beyond.
        await().atMost(Duration.ofSeconds(20)).until(() -> status.unsettledBytes(QUEUE) >= BOUND);
        assertEquals(100, status.prefetch(QUEUE));
        handlers.release.countDown();
        await().atMost(Duration.ofSeconds(20)).until(() -> status.prefetch(QUEUE) == 10);
        // From the first resumption on, sampled while the rest drains.
        AtomicLong most = new AtomicLong();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(2)).until(() -> {
            most.accumulateAndGet(status.unsettledBytes(QUEUE), Math::max);
            return handlers.handled.size() == MESSAGES;
        });
        assertTrue(most.get() <= 2 * BOUND + BODY, "at most about twice the bound once sized: " + most.get());
        assertEquals(MESSAGES, handlers.handled.size());
        assertEquals(0, handlers.redelivered.get(), "nothing was redelivered: no channel or connection closed");
        RabbitAdmin.with(admin -> await().until(() -> admin.depth(QUEUE) == 0));
        await().until(() -> status.unsettledBytes(QUEUE) == 0);
    }

    public static class Handlers {
        final Set<String> handled = ConcurrentHashMap.newKeySet();
        final AtomicLong redelivered = new AtomicLong();
        final CountDownLatch release = new CountDownLatch(1);

        @Subscriber(QUEUE)
        void handle(byte[] body, Delivery delivery) throws InterruptedException {
            release.await(60, TimeUnit.SECONDS);
            if (delivery.redelivered()) {
                redelivered.incrementAndGet();
            }
            handled.add(delivery.messageId());
            // A little work per message, so deliveries pile up behind it.
            java.util.concurrent.locks.LockSupport.parkNanos(2_000_000);
        }
    }
}
