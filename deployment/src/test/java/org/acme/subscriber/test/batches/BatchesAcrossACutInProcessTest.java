package org.acme.subscriber.test.batches;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Batch;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A cut in the middle of a batch on the in-process broker (BatchesAcrossACutTest is the same on RabbitMQ): the first
 * batch is in its handler when every channel is closed (CONNECTION_FORCED); its deliveries and those waiting behind it
 * go back to the queue, the subscriber subscribes again, and every message is handled: none lost, the ones handled
 * twice within the prefetch.
 */
class BatchesAcrossACutInProcessTest {

    static final String QUEUE = "bt.cut";
    static final int MESSAGES = 100;
    static final int PREFETCH = 20;

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    Handlers handlers;

    @Test
    void nothingIsLostAndDuplicatesStayWithinThePrefetch() throws Exception {
        for (int i = 0; i < MESSAGES; i++) {
            broker.publish(QUEUE, "m-" + i);
        }
        assertTrue(Handlers.inFirstBatch.await(10, TimeUnit.SECONDS), "the first batch reached its handler");
        broker.closeChannels();
        Handlers.release.countDown();
        // The subscriber subscribes again after its back-off, and partial batches close at maxWait: both on the
        // broker's clock.
        for (int second = 0; second < 60 && handlers.received().size() < MESSAGES; second++) {
            broker.advance(Duration.ofSeconds(1));
        }
        broker.awaitIdle();
        assertEquals(MESSAGES, handlers.received().size(), "every message handled");
        int duplicates = handlers.received().values().stream().mapToInt(count -> count.get() - 1).sum();
        System.out.printf("BATCHES across a cut, in process: %d messages, %d handled twice%n", MESSAGES, duplicates);
        assertTrue(duplicates <= PREFETCH, duplicates + " handled twice, within the prefetch of " + PREFETCH);
        assertEquals(0, broker.queue(QUEUE).depth());
        await().until(() -> broker.queue(QUEUE).unacked() == 0);
    }

    public static class Handlers {
        static final CountDownLatch inFirstBatch = new CountDownLatch(1);
        static final CountDownLatch release = new CountDownLatch(1);
        private final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();

        Map<String, AtomicInteger> received() {
            return received;
        }

        @Subscriber(value = QUEUE, prefetch = PREFETCH, batch = @Batch(size = 10, maxWait = "1s"))
        void handle(List<String> bodies) throws InterruptedException {
            if (inFirstBatch.getCount() > 0) {
                inFirstBatch.countDown();
                release.await(10, TimeUnit.SECONDS);
            }
            bodies.forEach(body -> received.computeIfAbsent(body, key -> new AtomicInteger()).incrementAndGet());
        }
    }
}
