package org.acme.subscriber.test.inprocess;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.Scenarios;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.smallrye.mutiny.Uni;

/**
 * Each delivery runs in a request context of its own, as an HTTP request does: a {@code @RequestScoped} bean is a new
 * instance per message, and it is destroyed when the handler is done, for a {@code Uni} handler only once its result
 * completed (on another thread, later).
 */
/** Run by {@link InProcessBasicsTest}, which calls each of its methods in one application with the others. */
interface RequestContextScenario {

    private InProcessBroker broker() {
        return Scenarios.bean(InProcessBroker.class);
    }

    private Handlers handlers() {
        return Scenarios.bean(Handlers.class);
    }

    default void everyDeliveryHasItsOwnRequestScopedBeans() {
        for (int i = 0; i < 3; i++) {
            broker().publish("t.request.sync", "m" + i);
        }
        broker().awaitIdle();
        assertEquals(3, Set.copyOf(handlers().instances).size(), "one instance per delivery: " + handlers().instances);
        assertTrue(PerMessage.destroyed.containsAll(handlers().instances), "each destroyed with its delivery");
    }

    default void anAsynchronousHandlersRequestContextLastsUntilItsResultCompletes() {
        broker().publish("t.request.async", "later");
        // The handler has returned its Uni (a context ended with the call would be destroyed by now).
        await().until(() -> handlers().pending != null);
        assertFalse(PerMessage.destroyed.contains(handlers().asyncInstance), "in use while the Uni has not completed");
        // Completes on another thread, where the handler's code goes on using the bean.
        CompletableFuture.runAsync(() -> handlers().pending.complete(null)).join();
        await().until(() -> PerMessage.destroyed.contains(handlers().asyncInstance));
        assertEquals("later", handlers().seenAfterCompletion.get(0));
    }

    @RequestScoped
    public static class PerMessage {
        static final List<Integer> destroyed = new CopyOnWriteArrayList<>();
        private static final AtomicInteger ids = new AtomicInteger();
        final int id = ids.incrementAndGet();
        String body;

        public int id() {
            return id;
        }

        @PreDestroy
        void destroy() {
            destroyed.add(id);
        }
    }

    public static class Handlers {
        final List<Integer> instances = new CopyOnWriteArrayList<>();
        final List<String> seenAfterCompletion = new CopyOnWriteArrayList<>();
        volatile CompletableFuture<Void> pending;
        volatile int asyncInstance;

        @Inject
        PerMessage perMessage;

        @Subscriber("t.request.sync")
        void sync(String body) {
            instances.add(perMessage.id());
        }

        @Subscriber("t.request.async")
        Uni<Void> async(String body) {
            perMessage.body = body;
            asyncInstance = perMessage.id();
            CompletableFuture<Void> later = new CompletableFuture<>();
            pending = later;
            return Uni.createFrom().completionStage(later).invoke(() -> seenAfterCompletion.add(perMessage.body));
        }
    }
}
