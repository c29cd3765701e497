package org.acme.subscriber.test.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Batch;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * 2,000 messages through a batch handler (batches of 100) and a network stall then reset (the in-JVM proxy) halfway,
 * with batches unsettled (in the handler, or waiting for their acks): nothing is lost, and what is handled twice is bounded
 * by what was unsettled at the cut, the prefetch.
 */
@Tag("wire")
class BatchesAcrossACutTest {

    static final int MESSAGES = 2_000;
    static final int PREFETCH = 200;
    static final String READINGS = "f.batch.readings";
    static final ToxicProxy.Handle PROXY = ToxicProxy.shared(WireBroker.PORT);

    // The application's url is the proxy's, so the fixture does not give it one (WireBroker.givesUrl: a class whose
    // application goes elsewhere sets its own).

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(READINGS);

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setAfterAllCustomizer(() -> PROXY.close().run())
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, ToxicProxy.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:guest@127.0.0.1:" + PROXY.port())
            .overrideConfigKey("quarkus.rabbitmq-subscriber.prefetch", String.valueOf(PREFETCH))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "300ms");

    @Inject
    Handlers handlers;

    @Inject
    SubscriberStatus status;

    @Test
    void aCutInTheMiddleOfBatchesLosesNoneAndDuplicatesWithinThePrefetch() throws Exception {
        RabbitAdmin.with(admin -> {
            admin.confirmPublishes();
            for (int i = 0; i < MESSAGES; i++) {
                admin.publishRaw(READINGS, Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                        new AMQP.BasicProperties.Builder().messageId("r-" + i).build());
            }
            admin.awaitConfirms();
        });
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(5))
                .until(() -> handlers.received.size() >= MESSAGES / 2);
        PROXY.stallThenReset().accept(Duration.ofSeconds(1));
        await().atMost(Duration.ofMinutes(2)).until(() -> handlers.received.size() == MESSAGES
                && status.notReady().isEmpty());
        RabbitAdmin.with(admin -> await().atMost(Duration.ofSeconds(30)).until(() -> admin.depth(READINGS) == 0));
        for (int i = 0; i < MESSAGES; i++) {
            assertTrue(handlers.received.containsKey(Integer.toString(i)), "message " + i + " lost");
        }
        int duplicates = handlers.received.values().stream().mapToInt(count -> count.get() - 1).sum();
        System.out.printf("BATCHES across a cut: %d messages, %d calls, %d items handled, %d duplicates%n", MESSAGES,
                handlers.calls.get(), handlers.received.values().stream().mapToInt(AtomicInteger::get).sum(),
                duplicates);
        assertTrue(duplicates <= PREFETCH, "duplicates " + duplicates + " within the prefetch");
        assertEquals(MESSAGES, handlers.received.size());
    }

    public static class Handlers {
        final AtomicInteger calls = new AtomicInteger();
        final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();

        @Subscriber(value = READINGS, batch = @Batch(size = 100, maxWait = "100ms"))
        void store(List<String> readings) {
            calls.incrementAndGet();
            readings.forEach(id -> received.computeIfAbsent(id, key -> new AtomicInteger()).incrementAndGet());
        }
    }
}
