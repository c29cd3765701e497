package org.acme.subscriber.test.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * 2,000 inputs, each handled with one output, and a network stall then reset (the in-JVM proxy) halfway: every
 * connection of the application is cut, between some outputs' confirms and their inputs' acks. Those inputs come back
 * and are handled again, so their outputs are duplicated; none is lost. The duplicates are bounded by what was
 * unsettled at the cut: a prefetch of inputs, and a prefetch of outputs the sink had not acked yet.
 */
@Tag("wire")
class OutputsAcrossACutTest {

    static final int MESSAGES = 2_000;
    static final int PREFETCH = 50;
    static final String INPUTS = "f.outputs.in";
    static final String OUTPUTS = "f.outputs.out";
    static final ToxicProxy.Handle PROXY = ToxicProxy.shared(WireBroker.PORT);

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(INPUTS, OUTPUTS);

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
    void aCutDuplicatesOutputsWithinThePrefetchAndLosesNone() throws Exception {
        RabbitAdmin.with(admin -> {
            admin.confirmPublishes();
            for (int i = 0; i < MESSAGES; i++) {
                admin.publishRaw(INPUTS, Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                        new AMQP.BasicProperties.Builder().messageId("in-" + i).build());
            }
            admin.awaitConfirms();
        });
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(5))
                .until(() -> handlers.received.size() >= MESSAGES / 2);
        PROXY.stallThenReset().accept(Duration.ofSeconds(1));
        await().atMost(Duration.ofMinutes(2)).until(() -> handlers.received.size() == MESSAGES
                && status.notReady().isEmpty());
        RabbitAdmin.with(admin -> await().atMost(Duration.ofSeconds(30))
                .until(() -> admin.depth(INPUTS) == 0 && admin.depth(OUTPUTS) == 0));
        for (int i = 0; i < MESSAGES; i++) {
            assertTrue(handlers.received.containsKey(Integer.toString(i)), "output of input " + i + " lost");
        }
        int duplicates = handlers.received.values().stream().mapToInt(count -> count.get() - 1).sum();
        System.out.printf("OUTPUTS across a cut: %d inputs, %d handlings, %d outputs received, %d duplicates%n",
                MESSAGES, handlers.handled.get(), handlers.received.values().stream().mapToInt(AtomicInteger::get)
                        .sum(),
                duplicates);
        assertTrue(duplicates <= 2 * PREFETCH, "duplicates " + duplicates + " within two prefetches");
        assertEquals(MESSAGES, handlers.received.size());
    }

    public static class Handlers {
        final AtomicInteger handled = new AtomicInteger();
        final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();

        @Subscriber(INPUTS)
        Outcome handle(String id, Outputs outputs) {
            handled.incrementAndGet();
            outputs.send(OUTPUTS, id);
            return Outcome.ack();
        }

        @Subscriber(OUTPUTS)
        void sink(String id) {
            received.computeIfAbsent(id, key -> new AtomicInteger()).incrementAndGet();
        }
    }
}
