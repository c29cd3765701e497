package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CompletableFuture;
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
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberEngine;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Stopping with a handler in flight: the stop waits for it, its delivery is settled as the handler said, and nothing
 * is redelivered. (The engine's stop is what the ShutdownEvent observer calls.)
 */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class GracefulShutdownTest {

    static final String QUEUE = "t.shutdown";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(SlowHandler.class));

    @Inject
    SlowHandler handler;

    @Inject
    SubscriberStatus status;

    @Inject
    SubscriberEngine engine;

    @Test
    void inFlightDeliveryIsSettledBeforeTheConnectionCloses() throws Exception {
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "slow"));
        assertEquals(true, handler.started.await(10, TimeUnit.SECONDS));
        CompletableFuture<Void> stopping = CompletableFuture.runAsync(engine::stop);
        // The stop waits for the handler: it is still in flight, and the stop has not returned.
        await().during(java.time.Duration.ofMillis(200)).atMost(java.time.Duration.ofSeconds(2))
                .until(() -> !stopping.isDone() && status.inFlight() == 1);
        handler.release.countDown();
        stopping.get(10, TimeUnit.SECONDS);
        assertEquals(0, status.inFlight());
        assertEquals(1, status.stats().acked());
        RabbitAdmin.with(admin -> {
            assertEquals(0, admin.depth(QUEUE), "the acked message must not come back");
        });
        assertEquals(1, handler.calls.get());
    }

    public static class SlowHandler {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger calls = new AtomicInteger();

        @Subscriber(QUEUE)
        Outcome handle(String body) throws InterruptedException {
            calls.incrementAndGet();
            started.countDown();
            release.await(30, TimeUnit.SECONDS);
            return Outcome.ack();
        }
    }
}
