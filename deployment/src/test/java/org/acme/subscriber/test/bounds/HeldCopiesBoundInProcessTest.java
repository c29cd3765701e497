package org.acme.subscriber.test.bounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code IN_SERVICE} copies are bounded: a backlog that answers {@code retryAfter} fills the service up to
 * {@code in-service.max-held} (plus what the prefetch had delivered already), then the subscriber takes no more; when
 * the copies go back, it takes deliveries again. Every message is handled, once after its delay.
 */
class HeldCopiesBoundInProcessTest {

    static final int MESSAGES = 1_000;
    static final int MAX_HELD = 100;
    static final int PREFETCH = 10;
    /**
     * What may come in past the bound: the consumer is cancelled on the supervisor's lane (a worker thread), and until
     * it is, the deliveries already on their way are handled and acked, which lets the broker send the next ones. About
     * a prefetch on an idle machine; 171 held (71 past the bound) was seen once with three test JVMs saturating both
     * cores. The point stands either way: the other 800-odd messages wait in the queue, not in the heap.
     */
    static final int SLACK = MAX_HELD;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.in-service.max-held", String.valueOf(MAX_HELD))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.prefetch", String.valueOf(PREFETCH));

    @Inject
    InProcessBroker broker;

    @Inject
    SubscriberStatus status;

    @Inject
    Handlers handlers;

    @Test
    void theBacklogWaitsInTheBrokerNotInTheHeap() {
        for (int i = 0; i < MESSAGES; i++) {
            broker.publish("b.held", "m-" + i);
        }
        broker.awaitIdle();
        int held = status.heldCopies("b.held");
        // What arrives while the consumer is being cancelled is handled too (SLACK).
        assertTrue(held >= MAX_HELD && held <= MAX_HELD + SLACK, "held " + held);
        assertTrue(broker.queue("b.held").depth() >= MESSAGES - MAX_HELD - SLACK,
                "the rest waits in the queue: " + broker.queue("b.held").depth());
        int most = held;
        for (int round = 0; round < 100 && handlers.done() < MESSAGES; round++) {
            broker.advance(Duration.ofSeconds(30));
            broker.awaitIdle();
            most = Math.max(most, status.heldCopies("b.held"));
        }
        assertEquals(MESSAGES, handlers.done(), "every message handled after its delay");
        assertTrue(most <= MAX_HELD + SLACK, "never more held than the bound and what came in while it was reached: " + most);
        assertTrue(handlers.twice().isEmpty(), "none handled twice after its delay: " + handlers.twice());
        assertEquals(0, broker.queue("b.held").depth());
    }

    @ApplicationScoped
    public static class Handlers {
        private final AtomicInteger done = new AtomicInteger();
        private final Map<String, Integer> seen = new ConcurrentHashMap<>();
        private final Map<String, Integer> seconds = new ConcurrentHashMap<>();

        int done() {
            return done.get();
        }

        Map<String, Integer> twice() {
            Map<String, Integer> more = new java.util.HashMap<>();
            seconds.forEach((id, count) -> {
                if (count > 1) {
                    more.put(id, count);
                }
            });
            return more;
        }

        @Subscriber("b.held")
        Outcome handle(String body) {
            if (seen.merge(body, 1, Integer::sum) == 1) {
                return Outcome.retryAfter(Duration.ofSeconds(30));
            }
            seconds.merge(body, 1, Integer::sum);
            done.incrementAndGet();
            return Outcome.ack();
        }
    }
}
