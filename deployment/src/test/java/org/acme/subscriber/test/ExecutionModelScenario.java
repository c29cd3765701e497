package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.common.annotation.RunOnVirtualThread;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Handlers run where their execution model says; every delivery is settled on its subscriber's own event loop all the
 * same (the runtime counts settlements made on any other thread, another event loop included, and that count stays
 * at zero). The handlers live in a user package: Quarkus lets execution annotations through on any method of a class
 * under io.quarkiverse, so only a user package shows whether @Subscriber methods count as entrypoints.
 */
/** Run by {@link WireBasicsTest}, which calls each of its methods in one application with the others. */
interface ExecutionModelScenario {

    private Handlers handlers() {
        return Scenarios.bean(Handlers.class);
    }

    private SubscriberStatus status() {
        return Scenarios.bean(SubscriberStatus.class);
    }

    static final String[] QUEUES = { "t.model.worker", "t.model.blocking-uni", "t.model.nonblocking",
            "t.model.uni", "t.model.virtual", "t.model.completed-on-worker", "t.model.completed-on-other-loop",
            "t.model.method-wins" };

    default void handlersRunWhereTheyShouldAndSettleOnTheEventLoop() {
        long settledBefore = status().stats().settledOnSubscriberLoop();
        RabbitAdmin.with(admin -> {
            for (String queue : QUEUES) {
                admin.publish(queue, "x");
            }
        });
        await().until(() -> handlers().onEventLoop.size() == QUEUES.length);
        await().until(() -> status().stats().settledOnSubscriberLoop() == settledBefore + QUEUES.length);
        assertEquals(0, status().stats().settledElsewhere());
        assertEquals(QUEUES.length, status().stats().acked());

        assertFalse(handlers().onEventLoop.get("t.model.worker"), "a plain Outcome handler runs on a worker");
        assertFalse(handlers().onEventLoop.get("t.model.blocking-uni"), "@Blocking moves a Uni handler to a worker");
        assertTrue(handlers().onEventLoop.get("t.model.nonblocking"), "@NonBlocking keeps a handler on the event loop");
        assertTrue(handlers().onEventLoop.get("t.model.uni"), "a Uni handler runs on the event loop");
        assertFalse(handlers().onEventLoop.get("t.model.completed-on-worker"));
        assertTrue(handlers().onEventLoop.get("t.model.completed-on-other-loop"), "completed on another event loop");
        assertTrue(handlers().onEventLoop.get("t.model.method-wins"), "a method's @NonBlocking beats its class's @Blocking");
        if (Runtime.version().feature() >= 21) {
            assertTrue(handlers().virtual.get(), "@RunOnVirtualThread runs on a virtual thread where the JDK has them");
        }
        assertFalse(handlers().onEventLoop.get("t.model.virtual"), "@RunOnVirtualThread leaves the event loop");
        RabbitAdmin.with(admin -> {
            for (String queue : QUEUES) {
                assertEquals(0, admin.depth(queue), queue);
            }
        });
    }

    public static class Handlers {
        final Map<String, Boolean> onEventLoop = new ConcurrentHashMap<>();
        final java.util.concurrent.atomic.AtomicBoolean virtual = new java.util.concurrent.atomic.AtomicBoolean();

        Outcome record(String queue) {
            onEventLoop.put(queue, Context.isOnEventLoopThread());
            return Outcome.ack();
        }

        @Subscriber("t.model.worker")
        Outcome worker(String body) {
            return record("t.model.worker");
        }

        @Blocking
        @Subscriber("t.model.blocking-uni")
        Uni<Outcome> blockingUni(String body) {
            return Uni.createFrom().item(record("t.model.blocking-uni"));
        }

        @NonBlocking
        @Subscriber("t.model.nonblocking")
        Outcome nonBlocking(String body) {
            return record("t.model.nonblocking");
        }

        @Subscriber("t.model.uni")
        Uni<Outcome> uni(String body) {
            return Uni.createFrom().item(record("t.model.uni"));
        }

        /** The result completes on a worker thread where the delivery's context is current: still settled on the loop. */
        @Subscriber("t.model.completed-on-worker")
        CompletionStage<Outcome> completedOnWorker(String body) {
            CompletableFuture<Outcome> result = new CompletableFuture<>();
            Vertx.currentContext().executeBlocking(() -> {
                result.complete(record("t.model.completed-on-worker"));
                return null;
            }, false);
            return result;
        }

        /**
         * The result completes on the thread of another event loop: settling there would be on "an" event loop, but
         * not on the one the subscriber's channel and ack window belong to.
         */
        @Subscriber("t.model.completed-on-other-loop")
        CompletionStage<Outcome> completedOnAnotherLoop(String body) {
            CompletableFuture<Outcome> result = new CompletableFuture<>();
            io.netty.channel.EventLoop other = null;
            for (io.netty.util.concurrent.EventExecutor loop : ((io.vertx.core.impl.VertxInternal) Vertx
                    .currentContext().owner()).nettyEventLoopGroup()) {
                if (!loop.inEventLoop()) {
                    other = (io.netty.channel.EventLoop) loop;
                    break;
                }
            }
            other.execute(() -> {
                record("t.model.completed-on-other-loop");
                result.complete(Outcome.ack());
            });
            return result;
        }

        @RunOnVirtualThread
        @Subscriber("t.model.virtual")
        void virtual(String body) throws Exception {
            // Thread.isVirtual() exists from JDK 21; the project compiles for 17 (where Quarkus falls back to workers).
            if (Runtime.version().feature() >= 21) {
                virtual.set((Boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread()));
            }
            record("t.model.virtual");
        }
    }

    @Blocking
    public static class BlockingByDefault {
        @Inject
        Handlers handlers;

        @NonBlocking
        @Subscriber("t.model.method-wins")
        Outcome methodWins(String body) {
            return handlers.record("t.model.method-wins");
        }
    }
}
