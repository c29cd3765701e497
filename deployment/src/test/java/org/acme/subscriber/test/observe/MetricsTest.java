package org.acme.subscriber.test.observe;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.Subscriptions;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With quarkus-micrometer in the application, a scripted run on RabbitMQ: one ack, a retry then ack, a retry later then
 * ack, a message retried to its cap of 3 and dead-lettered, a drop, a failure then ack, an undecodable body. Each
 * counter has exactly the expected value per tag, the process histogram counted every delivery, the Dev UI's
 * counters agree, and the paused gauge follows a pause and a resume.
 */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class MetricsTest {

    static final String QUEUE = "t.obs.metrics";
    static final String DEAD = QUEUE + ".dead";
    /** A batch handler's queue: its items counted one by one, its calls in the batch-size histogram. */
    static final String BATCH = "t.obs.metrics.batch";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE, DEAD, BATCH).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, Command.class, Batches.class))
            .setForcedDependencies(List.of(Dependency.of("io.quarkus", "quarkus-micrometer-deployment",
                    io.quarkus.builder.Version.getVersion())))
            .overrideConfigKey("quarkus.micrometer.binder-enabled-default", "false")
            .overrideConfigKey("quarkus.micrometer.registry-enabled-default", "false");

    @Inject
    MeterRegistry registry;

    @Inject
    SubscriberStatus status;

    @Inject
    Subscriptions subscriptions;

    @BeforeAll
    static void simpleRegistry() {
        // With no registry enabled the global composite records nothing: give it one that keeps values in memory.
        Metrics.globalRegistry.add(new SimpleMeterRegistry());
    }

    @Test
    void everyCounterHasTheExpectedValuePerTag() throws Exception {
        RabbitAdmin.with(admin -> {
            for (String action : List.of("ack", "retry", "later", "poison", "drop", "boom", "fatal")) {
                admin.publish(QUEUE, "{\"action\":\"" + action + "\"}", "m-" + action);
            }
            admin.publish(QUEUE, "not json", "m-garbage");
        });
        // 15 deliveries: ack 1; retry 2; later 2; poison 3; drop 1; boom 2; fatal 3; garbage 1.
        await().atMost(Duration.ofSeconds(20)).until(() -> total("messaging.client.consumed.messages") == 15
                && RabbitAdmin.withResult(admin -> admin.depth(DEAD)) == 3);

        // Every message that ends in the dead-letter queue counts as dead-letter, whatever sent it there: the poison
        // message's retry at its cap, the undecodable body, and the handler that failed at its last attempt.
        Map<String, Double> outcomes = Map.of("ack", 4.0, "retry", 3.0, "retry-after", 1.0, "drop", 1.0,
                "dead-letter", 3.0, "undecodable", 0.0, "failure", 3.0);
        outcomes.forEach((outcome, expected) -> assertEquals(expected, registry.get("quarkus.rabbitmq-subscriber.outcomes")
                .tags("queue", QUEUE, "outcome", outcome).counter().count(), outcome));
        outcomes.forEach((outcome, expected) -> assertEquals(expected.longValue(),
                status.outcomes().get(QUEUE).get(outcome), "the Dev UI's " + outcome));

        assertEquals(10.0, consumed("none"));
        assertEquals(1.0, consumed(IllegalStateException.class.getName()));
        assertEquals(3.0, consumed(IllegalArgumentException.class.getName()));
        assertEquals(1.0, consumed("io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException"));
        assertEquals(15, registry.get("messaging.process.duration").tag("messaging.destination.name", QUEUE).timers()
                .stream().mapToLong(Timer::count).sum(),
                "the histogram counted every delivery");
        assertEquals("rabbitmq", registry.get("messaging.process.duration").timer().getId().getTag("messaging.system"));

        // Copies back to the queue: retry 1, poison 2, boom 1, fatal 2, and the held copy of the delayed retry; dead
        // letters: the poison message at its cap, the undecodable body and the fatal failure at its cap.
        assertEquals(7.0, sent(QUEUE));
        assertEquals(3.0, sent(DEAD));
        assertEquals(10, registry.get("messaging.client.operation.duration").tags("messaging.operation.name", "publish")
                .timers().stream().mapToLong(Timer::count).sum());
        await().until(() -> registry.get("messaging.client.operation.duration").tags("messaging.operation.name", "ack")
                .timers().stream().mapToLong(Timer::count).sum() > 0);

        assertEquals(0.0, registry.get("quarkus.rabbitmq-subscriber.delayed.pending").tags("queue", QUEUE).gauge().value());
        assertEquals(0.0, registry.get("quarkus.rabbitmq-subscriber.deliveries.in-flight").gauge().value());

        // The paused gauge: 1 while the application holds the subscriber, 0 again after it resumed.
        assertEquals(0.0, paused());
        subscriptions.pause(QUEUE);
        assertEquals(1.0, paused());
        subscriptions.resume(QUEUE);
        assertEquals(0.0, paused());
    }

    @Test
    void aBatchCountsItsItemsOneByOneAndItsSizeOnce() throws Exception {
        RabbitAdmin.with(admin -> {
            for (int i = 0; i < 4; i++) {
                admin.publish(BATCH, "{\"action\":\"ack\"}", "b-" + i);
            }
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> registry.find("quarkus.rabbitmq-subscriber.outcomes")
                .tags("queue", BATCH, "outcome", "ack").counter().count() == 4);
        var sizes = registry.get("quarkus.rabbitmq-subscriber.batch.size").tags("queue", BATCH).summary();
        assertEquals(1, sizes.count(), "one call");
        assertEquals(4.0, sizes.totalAmount(), "of 4 messages");
        assertEquals(4.0, registry.get("messaging.client.consumed.messages").tags("messaging.destination.name", BATCH,
                "error.type", "none").counter().count());
    }

    private double paused() {
        return registry.get("quarkus.rabbitmq-subscriber.subscriber.paused").tags("queue", QUEUE).gauge().value();
    }

    /** Of {@link #QUEUE} only: the batch queue's are counted apart. */
    private double total(String name) {
        return registry.find(name).tag("messaging.destination.name", QUEUE).counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    private double consumed(String errorType) {
        return registry.get("messaging.client.consumed.messages").tags("messaging.destination.name", QUEUE,
                "messaging.operation.name", "process", "error.type", errorType).counter().count();
    }

    private double sent(String destination) {
        return registry.get("messaging.client.sent.messages").tags("messaging.destination.name", destination,
                "error.type", "none").counter().count();
    }

    public record Command(String action) {
    }

    public static class Batches {
        @Subscriber(value = BATCH, batch = @io.quarkiverse.rabbitmq.subscriber.Batch(size = 4, maxWait = "30s"))
        void handle(List<Command> commands) {
        }
    }

    public static class Handler {
        final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();

        @Subscriber(value = QUEUE, maxAttempts = 3, deadLetter = DEAD)
        Outcome handle(Command command) {
            int attempt = attempts.computeIfAbsent(command.action(), ignored -> new AtomicInteger()).incrementAndGet();
            return switch (command.action()) {
                case "retry" -> attempt == 1 ? Outcome.retry() : Outcome.ack();
                case "later" -> attempt == 1 ? Outcome.retryAfter(Duration.ofMillis(10)) : Outcome.ack();
                case "poison" -> Outcome.retry();
                case "drop" -> Outcome.drop();
                case "fatal" -> throw new IllegalArgumentException("never works");
                case "boom" -> {
                    if (attempt == 1) {
                        throw new IllegalStateException("card processor down");
                    }
                    yield Outcome.ack();
                }
                default -> Outcome.ack();
            };
        }
    }
}
