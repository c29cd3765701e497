package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * A confirmed send completes where its caller runs, never on amqp-client's reader thread: a continuation that blocks
 * there (another {@code sendConfirmedAndAwait}) would wait for a confirm the blocked reader can no longer read.
 */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class PublisherContinuationTest {

    static final String QUEUE = "t.publisher.continuation";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Inbox.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.publisher.confirm-timeout", "20s");

    @Inject
    RabbitPublisher publisher;

    @Inject
    Inbox inbox;

    @Inject
    Vertx vertx;

    @Test
    void aBlockingContinuationOfAConfirmDoesNotDeadlock() throws Exception {
        CompletableFuture<Void> chained = publisher.sendConfirmed(QUEUE, "first").subscribeAsCompletionStage()
                .thenRun(() -> {
                    assertFalse(Thread.currentThread().getName().startsWith("AMQP Connection"),
                            "continuation ran on amqp-client's reader thread");
                    publisher.sendConfirmedAndAwait(QUEUE, "second");
                });
        chained.get(15, TimeUnit.SECONDS);
        await().until(() -> inbox.bodies.containsAll(List.of("first", "second")));
    }

    @Test
    void aConfirmCompletesOnTheCallersContext() throws Exception {
        Context caller = vertx.getOrCreateContext();
        CompletableFuture<Context> completedOn = new CompletableFuture<>();
        caller.runOnContext(ignored -> publisher.sendConfirmed(QUEUE, "from an event loop").subscribe().with(
                done -> completedOn.complete(Vertx.currentContext()), completedOn::completeExceptionally));
        assertSame(caller, completedOn.get(15, TimeUnit.SECONDS));
        await().until(() -> inbox.bodies.contains("from an event loop"));
    }

    public static class Inbox {
        final List<String> bodies = new CopyOnWriteArrayList<>();

        @Subscriber(QUEUE)
        void receive(String body) {
            bodies.add(body);
        }
    }
}
