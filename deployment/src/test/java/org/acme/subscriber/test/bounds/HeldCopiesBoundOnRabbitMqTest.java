package org.acme.subscriber.test.bounds;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * 20,000 messages that each answer {@code retryAfter(1 h)}: the service holds the bound's worth of copies (and what
 * arrived while its consumer was being cancelled), one WARN says it stops taking deliveries, and the backlog stays in RabbitMQ.
 * Without the
 * bound the whole backlog moved into the heap (about 100 B a body here; 10 GiB for a million 10 KiB messages).
 */
@Tag("wire")
class HeldCopiesBoundOnRabbitMqTest extends BrokerScenarios {

    static final String QUEUE = "t.held.bound";
    /** Twenty times the bound: enough to tell a bound from a backlog moved into the heap, quick to publish. */
    static final int MESSAGES = 20_000;
    static final int MAX_HELD = 1_000;
    static final int PREFETCH = 100;

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).before(admin -> {
        admin.declare(QUEUE, java.util.Map.of());
        admin.confirmPublishes();
        byte[] body = new byte[100];
        for (int i = 0; i < MESSAGES; i++) {
            admin.publishRaw(QUEUE, body, new AMQP.BasicProperties.Builder().messageId("m-" + i).build());
        }
        admin.awaitConfirms();
    }).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.in-service.max-held", String.valueOf(MAX_HELD))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.prefetch", String.valueOf(PREFETCH))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.shutdown-timeout", "5s")
            .setLogRecordPredicate(record -> String.valueOf(record.getMessage()).contains("stops taking deliveries"))
            .assertLogRecords(records -> assertEquals(1, records.size(), "one WARN when the bound is reached"));

    @Inject
    SubscriberStatus status;

    @Inject
    Handlers handlers;

    @Test
    void theBacklogStaysInRabbitMq() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> status.heldCopies(QUEUE) >= MAX_HELD);
        // The consumer is cancelled within milliseconds of the bound; what arrives while it is being cancelled is still
        // handled (about a prefetch, more while the machine is busy). Then nothing more arrives: the count stays the
        // same for a second.
        long[] seen = { -1, 0 };
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).until(() -> {
            int held = status.heldCopies(QUEUE);
            long now = System.nanoTime();
            if (held != seen[0]) {
                seen[0] = held;
                seen[1] = now;
                return false;
            }
            return now - seen[1] >= Duration.ofSeconds(1).toNanos();
        });
        long held = seen[0];
        // Held back: a bound's worth and what arrived while the consumer was cancelled, far from the 20,000 behind it
        // (1,000 to 1,100 on an idle machine).
        assertTrue(held <= 2 * MAX_HELD, "held " + held);
        int handled = handlers.handled();
        assertTrue(handled <= 2 * MAX_HELD, "handled " + handled);
        assertTrue(RabbitAdmin.withResult(admin -> admin.depth(QUEUE)) >= MESSAGES - 2 * MAX_HELD,
                "the rest waits in RabbitMQ");
    }

    @ApplicationScoped
    public static class Handlers {
        private final AtomicInteger handled = new AtomicInteger();

        int handled() {
            return handled.get();
        }

        @Subscriber(QUEUE)
        Outcome handle(byte[] body) {
            handled.incrementAndGet();
            return Outcome.retryAfter(Duration.ofHours(1));
        }
    }
}
