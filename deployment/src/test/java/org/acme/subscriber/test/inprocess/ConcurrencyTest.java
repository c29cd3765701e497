package org.acme.subscriber.test.inprocess;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.common.annotation.NonBlocking;
import io.vertx.core.Context;

/**
 * {@code concurrency} bounds how many deliveries of one subscription its handler processes at once: 1 handles the
 * queue in order, one message at a time, even on worker threads. And a payload is decoded where its handler runs: a
 * worker handler's body is not decoded on the event loop.
 */
class ConcurrencyTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Order.class, RecordingDecoder.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"c.three\".concurrency", "3");

    @Inject
    InProcessBroker broker;

    @Inject
    Handlers handlers;

    @Test
    void oneAtATimeInOrder() {
        IntStream.range(0, 20).forEach(i -> broker.publish("c.ordered", new Order(i)));
        broker.awaitIdle();
        assertEquals(IntStream.range(0, 20).boxed().toList(), handlers.ordered);
        assertEquals(1, handlers.maxOrdered.get());
    }

    /** Settled at once on the event loop, each releases the next: 5,000 of them must not deepen the stack. */
    @Test
    void aLongQueueOfWaitingDeliveriesOnTheEventLoop() {
        IntStream.range(0, 5_000).forEach(i -> broker.publish("c.ordered-loop", new Order(i)));
        broker.awaitIdle();
        assertEquals(IntStream.range(0, 5_000).boxed().toList(), handlers.orderedOnLoop);
    }

    @Test
    void aConfiguredBoundHolds() {
        IntStream.range(0, 30).forEach(i -> broker.publish("c.three", new Order(i)));
        broker.awaitIdle();
        assertEquals(30, handlers.three.size());
        assertTrue(handlers.maxThree.get() <= 3, "at most 3 at once: " + handlers.maxThree.get());
        assertTrue(handlers.maxThree.get() > 1, "the worker pool ran several at once: " + handlers.maxThree.get());
    }

    @Test
    void aWorkerHandlersPayloadIsDecodedOffTheEventLoop() {
        broker.publish("c.decode-worker", new Order(1));
        broker.publish("c.decode-loop", new Order(2));
        broker.awaitIdle();
        assertFalse(RecordingDecoder.decodedOnEventLoop.get(1), "decoded where the worker handler runs");
        assertTrue(RecordingDecoder.decodedOnEventLoop.get(2), "an event-loop handler's payload is decoded there");
    }

    @JsonDeserialize(using = RecordingDecoder.class)
    public record Order(int id) {
    }

    /** Decodes an order and notes whether it did so on an event loop. */
    public static class RecordingDecoder extends JsonDeserializer<Order> {
        static final Map<Integer, Boolean> decodedOnEventLoop = new ConcurrentHashMap<>();

        @Override
        public Order deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            int id = ((com.fasterxml.jackson.databind.JsonNode) parser.readValueAsTree()).get("id").asInt();
            decodedOnEventLoop.put(id, Context.isOnEventLoopThread());
            return new Order(id);
        }
    }

    public static class Handlers {
        final List<Integer> ordered = new CopyOnWriteArrayList<>();
        final AtomicInteger runningOrdered = new AtomicInteger();
        final AtomicInteger maxOrdered = new AtomicInteger();
        final List<Integer> three = new CopyOnWriteArrayList<>();
        final AtomicInteger runningThree = new AtomicInteger();
        final AtomicInteger maxThree = new AtomicInteger();

        @Subscriber(value = "c.ordered", concurrency = 1)
        void ordered(Order order) {
            maxOrdered.accumulateAndGet(runningOrdered.incrementAndGet(), Math::max);
            // Gives a second delivery the chance to start beside this one; ends early if one does (the test then fails).
            othersStarted(runningOrdered, 2, Duration.ofMillis(20));
            ordered.add(order.id());
            runningOrdered.decrementAndGet();
        }

        final List<Integer> orderedOnLoop = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

        @NonBlocking
        @Subscriber(value = "c.ordered-loop", concurrency = 1, prefetch = 5_000)
        void orderedOnLoop(Order order) {
            orderedOnLoop.add(order.id());
        }

        @Subscriber("c.three")
        void three(Order order) {
            maxThree.accumulateAndGet(runningThree.incrementAndGet(), Math::max);
            // Holds this delivery until three run at once (or a little while, for the last ones): the bound shows.
            othersStarted(runningThree, 3, Duration.ofMillis(200));
            three.add(order.id());
            runningThree.decrementAndGet();
        }

        /** Waits until {@code running} reaches {@code count}, at most {@code deadline}; either way it returns. */
        private static void othersStarted(AtomicInteger running, int count, Duration deadline) {
            try {
                await().pollInterval(Duration.ofMillis(1)).atMost(deadline).until(() -> running.get() >= count);
            } catch (ConditionTimeoutException expected) {
                // Nobody else started in time: fine, the handler goes on.
            }
        }

        @Subscriber("c.decode-worker")
        void onWorker(Order order) {
        }

        @NonBlocking
        @Subscriber("c.decode-loop")
        void onLoop(Order order) {
        }
    }
}
