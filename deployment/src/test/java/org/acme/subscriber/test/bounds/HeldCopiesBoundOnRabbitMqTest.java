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
 * the prefetch had delivered), one WARN says it stops taking deliveries, and the backlog stays in RabbitMQ. Without the
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
        // Held back: however long it runs, no more than the bound and about a prefetch (what arrives while the consumer is
        // being cancelled).
        // The consumer is cancelled within milliseconds of the bound: a second of nothing more shows it stays so.
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> status.heldCopies(QUEUE) <= MAX_HELD + 2 * PREFETCH);
        int handled = handlers.handled();
        assertTrue(handled <= MAX_HELD + 2 * PREFETCH, "handled " + handled);
        assertTrue(RabbitAdmin.withResult(admin -> admin.depth(QUEUE)) >= MESSAGES - MAX_HELD - 2 * PREFETCH,
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
