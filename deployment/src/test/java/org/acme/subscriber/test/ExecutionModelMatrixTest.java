package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.common.annotation.RunOnVirtualThread;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.json.JsonObject;

/**
 * Where every kind of handler runs, on the real broker: each return type ({@code Outcome}, {@code void},
 * {@code Uni<Outcome>}, {@code Uni<Void>}, {@code CompletionStage<Outcome>}) with each payload kind (a JSON type,
 * {@code byte[]}, {@code String}, {@code JsonObject}), under each execution model (none, {@code @NonBlocking},
 * {@code @Blocking}, {@code @RunOnVirtualThread}), on the method and on the class: 140 handlers, one queue each. A JSON
 * payload records the thread it was decoded on, which must be the handler's. Every delivery is still settled on its
 * subscriber's event loop. The handlers live in a user package, as an application's do.
 */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class ExecutionModelMatrixTest {

    /** Where each handler must run: without an annotation, a synchronous return runs on a worker. */
    static final Map<String, Model> EXPECTED = Map.ofEntries(
            Map.entry("t.matrix.none.outcome.json", Model.WORKER),
            Map.entry("t.matrix.none.outcome.bytes", Model.WORKER),
            Map.entry("t.matrix.none.outcome.string", Model.WORKER),
            Map.entry("t.matrix.none.outcome.json-object", Model.WORKER),
            Map.entry("t.matrix.none.void.json", Model.WORKER),
            Map.entry("t.matrix.none.void.bytes", Model.WORKER),
            Map.entry("t.matrix.none.void.string", Model.WORKER),
            Map.entry("t.matrix.none.void.json-object", Model.WORKER),
            Map.entry("t.matrix.none.uni.json", Model.EVENT_LOOP),
            Map.entry("t.matrix.none.uni.bytes", Model.EVENT_LOOP),
            Map.entry("t.matrix.none.uni.string", Model.EVENT_LOOP),
            Map.entry("t.matrix.none.uni.json-object", Model.EVENT_LOOP),
            Map.entry("t.matrix.none.uni-void.json", Model.EVENT_LOOP),
            Map.entry("t.matrix.none.uni-void.bytes", Model.EVENT_LOOP),
            Map.entry("t.matrix.none.uni-void.string", Model.EVENT_LOOP),
            Map.entry("t.matrix.none.uni-void.json-object", Model.EVENT_LOOP),
            Map.entry("t.matrix.none.completion-stage.json", Model.EVENT_LOOP),
            Map.entry("t.matrix.none.completion-stage.bytes", Model.EVENT_LOOP),
            Map.entry("t.matrix.none.completion-stage.string", Model.EVENT_LOOP),
            Map.entry("t.matrix.none.completion-stage.json-object", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.outcome.json", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.outcome.bytes", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.outcome.string", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.outcome.json-object", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.void.json", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.void.bytes", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.void.string", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.void.json-object", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.uni.json", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.uni.bytes", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.uni.string", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.uni.json-object", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.uni-void.json", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.uni-void.bytes", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.uni-void.string", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.uni-void.json-object", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.completion-stage.json", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.completion-stage.bytes", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.completion-stage.string", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-nonblocking.completion-stage.json-object", Model.EVENT_LOOP),
            Map.entry("t.matrix.method-blocking.outcome.json", Model.WORKER),
            Map.entry("t.matrix.method-blocking.outcome.bytes", Model.WORKER),
            Map.entry("t.matrix.method-blocking.outcome.string", Model.WORKER),
            Map.entry("t.matrix.method-blocking.outcome.json-object", Model.WORKER),
            Map.entry("t.matrix.method-blocking.void.json", Model.WORKER),
            Map.entry("t.matrix.method-blocking.void.bytes", Model.WORKER),
            Map.entry("t.matrix.method-blocking.void.string", Model.WORKER),
            Map.entry("t.matrix.method-blocking.void.json-object", Model.WORKER),
            Map.entry("t.matrix.method-blocking.uni.json", Model.WORKER),
            Map.entry("t.matrix.method-blocking.uni.bytes", Model.WORKER),
            Map.entry("t.matrix.method-blocking.uni.string", Model.WORKER),
            Map.entry("t.matrix.method-blocking.uni.json-object", Model.WORKER),
            Map.entry("t.matrix.method-blocking.uni-void.json", Model.WORKER),
            Map.entry("t.matrix.method-blocking.uni-void.bytes", Model.WORKER),
            Map.entry("t.matrix.method-blocking.uni-void.string", Model.WORKER),
            Map.entry("t.matrix.method-blocking.uni-void.json-object", Model.WORKER),
            Map.entry("t.matrix.method-blocking.completion-stage.json", Model.WORKER),
            Map.entry("t.matrix.method-blocking.completion-stage.bytes", Model.WORKER),
            Map.entry("t.matrix.method-blocking.completion-stage.string", Model.WORKER),
            Map.entry("t.matrix.method-blocking.completion-stage.json-object", Model.WORKER),
            Map.entry("t.matrix.method-virtual.outcome.json", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.outcome.bytes", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.outcome.string", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.outcome.json-object", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.void.json", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.void.bytes", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.void.string", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.void.json-object", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.uni.json", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.uni.bytes", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.uni.string", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.uni.json-object", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.uni-void.json", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.uni-void.bytes", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.uni-void.string", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.uni-void.json-object", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.completion-stage.json", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.completion-stage.bytes", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.completion-stage.string", Model.VIRTUAL),
            Map.entry("t.matrix.method-virtual.completion-stage.json-object", Model.VIRTUAL),
            Map.entry("t.matrix.class-nonblocking.outcome.json", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.outcome.bytes", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.outcome.string", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.outcome.json-object", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.void.json", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.void.bytes", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.void.string", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.void.json-object", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.uni.json", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.uni.bytes", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.uni.string", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.uni.json-object", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.uni-void.json", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.uni-void.bytes", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.uni-void.string", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.uni-void.json-object", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.completion-stage.json", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.completion-stage.bytes", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.completion-stage.string", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-nonblocking.completion-stage.json-object", Model.EVENT_LOOP),
            Map.entry("t.matrix.class-blocking.outcome.json", Model.WORKER),
            Map.entry("t.matrix.class-blocking.outcome.bytes", Model.WORKER),
            Map.entry("t.matrix.class-blocking.outcome.string", Model.WORKER),
            Map.entry("t.matrix.class-blocking.outcome.json-object", Model.WORKER),
            Map.entry("t.matrix.class-blocking.void.json", Model.WORKER),
            Map.entry("t.matrix.class-blocking.void.bytes", Model.WORKER),
            Map.entry("t.matrix.class-blocking.void.string", Model.WORKER),
            Map.entry("t.matrix.class-blocking.void.json-object", Model.WORKER),
            Map.entry("t.matrix.class-blocking.uni.json", Model.WORKER),
            Map.entry("t.matrix.class-blocking.uni.bytes", Model.WORKER),
            Map.entry("t.matrix.class-blocking.uni.string", Model.WORKER),
            Map.entry("t.matrix.class-blocking.uni.json-object", Model.WORKER),
            Map.entry("t.matrix.class-blocking.uni-void.json", Model.WORKER),
            Map.entry("t.matrix.class-blocking.uni-void.bytes", Model.WORKER),
            Map.entry("t.matrix.class-blocking.uni-void.string", Model.WORKER),
            Map.entry("t.matrix.class-blocking.uni-void.json-object", Model.WORKER),
            Map.entry("t.matrix.class-blocking.completion-stage.json", Model.WORKER),
            Map.entry("t.matrix.class-blocking.completion-stage.bytes", Model.WORKER),
            Map.entry("t.matrix.class-blocking.completion-stage.string", Model.WORKER),
            Map.entry("t.matrix.class-blocking.completion-stage.json-object", Model.WORKER),
            Map.entry("t.matrix.class-virtual.outcome.json", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.outcome.bytes", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.outcome.string", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.outcome.json-object", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.void.json", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.void.bytes", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.void.string", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.void.json-object", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.uni.json", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.uni.bytes", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.uni.string", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.uni.json-object", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.uni-void.json", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.uni-void.bytes", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.uni-void.string", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.uni-void.json-object", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.completion-stage.json", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.completion-stage.bytes", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.completion-stage.string", Model.VIRTUAL),
            Map.entry("t.matrix.class-virtual.completion-stage.json-object", Model.VIRTUAL));

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(EXPECTED.keySet().toArray(String[]::new)).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Seen.class, Ping.class, Model.class, NoAnnotation.class,
                    MethodNonBlocking.class, MethodBlocking.class, MethodVirtual.class, ClassNonBlocking.class,
                    ClassBlocking.class, ClassVirtual.class));

    @Inject
    SubscriberStatus status;

    @Test
    void everyHandlerRunsWhereItsModelSaysAndDecodesThere() {
        long settledBefore = status.stats().settledOnSubscriberLoop();
        RabbitAdmin.with(admin -> {
            for (String queue : EXPECTED.keySet()) {
                admin.publish(queue, new JsonObject().put("queue", queue).encode());
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> Seen.RAN_ON.size() == EXPECTED.size());
        await().until(() -> status.stats().settledOnSubscriberLoop() == settledBefore + EXPECTED.size());
        assertEquals(0, status.stats().settledElsewhere(), "every delivery is settled on its subscriber's event loop");

        // One comparison of the whole matrix, so a failure lists every handler that ran in the wrong place.
        Map<String, String> expected = new TreeMap<>();
        Map<String, String> actual = new TreeMap<>();
        EXPECTED.forEach((queue, model) -> {
            expected.put(queue, model.onThisJdk().name());
            actual.put(queue, Seen.RAN_ON.get(queue).name());
        });
        assertEquals(expected, actual);

        Map<String, String> decodedElsewhere = new TreeMap<>();
        Seen.DECODED_ON.forEach((queue, thread) -> {
            if (!thread.equals(Seen.THREAD.get(queue))) {
                decodedElsewhere.put(queue, "decoded on " + thread + ", handled on " + Seen.THREAD.get(queue));
            }
        });
        assertEquals(Map.of(), decodedElsewhere, "a JSON payload is decoded on the thread its handler runs on");
        assertEquals(35, Seen.DECODED_ON.size(), "every JSON handler decoded its payload");
        RabbitAdmin.with(admin -> {
            for (String queue : EXPECTED.keySet()) {
                assertEquals(0, admin.depth(queue), queue);
            }
        });
    }

    enum Model {
        EVENT_LOOP,
        WORKER,
        VIRTUAL,
        OTHER;

        /** Before JDK 21 there are no virtual threads: Quarkus runs those handlers on a worker. */
        Model onThisJdk() {
            return this == VIRTUAL && Runtime.version().feature() < 21 ? WORKER : this;
        }

        static Model current() {
            if (Context.isOnEventLoopThread()) {
                return EVENT_LOOP;
            }
            if (isVirtual(Thread.currentThread())) {
                return VIRTUAL;
            }
            return Thread.currentThread().getName().startsWith("executor-thread") ? WORKER : OTHER;
        }

        private static boolean isVirtual(Thread thread) {
            // Thread.isVirtual() exists from JDK 21; the project compiles for 17.
            try {
                return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
            } catch (ReflectiveOperationException e) {
                return false;
            }
        }
    }

    /** What each handler saw: the model of the thread it ran on, and where JSON payloads were decoded. */
    public static final class Seen {
        static final Map<String, Model> RAN_ON = new ConcurrentHashMap<>();
        static final Map<String, String> THREAD = new ConcurrentHashMap<>();
        static final Map<String, String> DECODED_ON = new ConcurrentHashMap<>();

        static Outcome ran(String queue, Object payload) {
            THREAD.put(queue, Thread.currentThread().getName());
            RAN_ON.put(queue, Model.current());
            return Outcome.ack();
        }
    }

    /** A JSON payload that notes the thread Jackson built it on. */
    public record Ping(String queue) {
        public Ping {
            Seen.DECODED_ON.put(queue, Thread.currentThread().getName());
        }
    }

    public static class NoAnnotation {
        @Subscriber("t.matrix.none.outcome.json")
        Outcome outcomeJson(Ping payload) {
            return Seen.ran("t.matrix.none.outcome.json", payload);
        }

        @Subscriber("t.matrix.none.outcome.bytes")
        Outcome outcomeBytes(byte[] payload) {
            return Seen.ran("t.matrix.none.outcome.bytes", payload);
        }

        @Subscriber("t.matrix.none.outcome.string")
        Outcome outcomeString(String payload) {
            return Seen.ran("t.matrix.none.outcome.string", payload);
        }

        @Subscriber("t.matrix.none.outcome.json-object")
        Outcome outcomeJsonObject(JsonObject payload) {
            return Seen.ran("t.matrix.none.outcome.json-object", payload);
        }

        @Subscriber("t.matrix.none.void.json")
        void voidJson(Ping payload) {
            Seen.ran("t.matrix.none.void.json", payload);
        }

        @Subscriber("t.matrix.none.void.bytes")
        void voidBytes(byte[] payload) {
            Seen.ran("t.matrix.none.void.bytes", payload);
        }

        @Subscriber("t.matrix.none.void.string")
        void voidString(String payload) {
            Seen.ran("t.matrix.none.void.string", payload);
        }

        @Subscriber("t.matrix.none.void.json-object")
        void voidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.none.void.json-object", payload);
        }

        @Subscriber("t.matrix.none.uni.json")
        Uni<Outcome> uniJson(Ping payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.none.uni.json", payload));
        }

        @Subscriber("t.matrix.none.uni.bytes")
        Uni<Outcome> uniBytes(byte[] payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.none.uni.bytes", payload));
        }

        @Subscriber("t.matrix.none.uni.string")
        Uni<Outcome> uniString(String payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.none.uni.string", payload));
        }

        @Subscriber("t.matrix.none.uni.json-object")
        Uni<Outcome> uniJsonObject(JsonObject payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.none.uni.json-object", payload));
        }

        @Subscriber("t.matrix.none.uni-void.json")
        Uni<Void> uniVoidJson(Ping payload) {
            Seen.ran("t.matrix.none.uni-void.json", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.none.uni-void.bytes")
        Uni<Void> uniVoidBytes(byte[] payload) {
            Seen.ran("t.matrix.none.uni-void.bytes", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.none.uni-void.string")
        Uni<Void> uniVoidString(String payload) {
            Seen.ran("t.matrix.none.uni-void.string", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.none.uni-void.json-object")
        Uni<Void> uniVoidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.none.uni-void.json-object", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.none.completion-stage.json")
        CompletionStage<Outcome> completionStageJson(Ping payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.none.completion-stage.json", payload));
        }

        @Subscriber("t.matrix.none.completion-stage.bytes")
        CompletionStage<Outcome> completionStageBytes(byte[] payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.none.completion-stage.bytes", payload));
        }

        @Subscriber("t.matrix.none.completion-stage.string")
        CompletionStage<Outcome> completionStageString(String payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.none.completion-stage.string", payload));
        }

        @Subscriber("t.matrix.none.completion-stage.json-object")
        CompletionStage<Outcome> completionStageJsonObject(JsonObject payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.none.completion-stage.json-object", payload));
        }
    }

    public static class MethodNonBlocking {
        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.outcome.json")
        Outcome outcomeJson(Ping payload) {
            return Seen.ran("t.matrix.method-nonblocking.outcome.json", payload);
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.outcome.bytes")
        Outcome outcomeBytes(byte[] payload) {
            return Seen.ran("t.matrix.method-nonblocking.outcome.bytes", payload);
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.outcome.string")
        Outcome outcomeString(String payload) {
            return Seen.ran("t.matrix.method-nonblocking.outcome.string", payload);
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.outcome.json-object")
        Outcome outcomeJsonObject(JsonObject payload) {
            return Seen.ran("t.matrix.method-nonblocking.outcome.json-object", payload);
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.void.json")
        void voidJson(Ping payload) {
            Seen.ran("t.matrix.method-nonblocking.void.json", payload);
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.void.bytes")
        void voidBytes(byte[] payload) {
            Seen.ran("t.matrix.method-nonblocking.void.bytes", payload);
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.void.string")
        void voidString(String payload) {
            Seen.ran("t.matrix.method-nonblocking.void.string", payload);
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.void.json-object")
        void voidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.method-nonblocking.void.json-object", payload);
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.uni.json")
        Uni<Outcome> uniJson(Ping payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.method-nonblocking.uni.json", payload));
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.uni.bytes")
        Uni<Outcome> uniBytes(byte[] payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.method-nonblocking.uni.bytes", payload));
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.uni.string")
        Uni<Outcome> uniString(String payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.method-nonblocking.uni.string", payload));
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.uni.json-object")
        Uni<Outcome> uniJsonObject(JsonObject payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.method-nonblocking.uni.json-object", payload));
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.uni-void.json")
        Uni<Void> uniVoidJson(Ping payload) {
            Seen.ran("t.matrix.method-nonblocking.uni-void.json", payload);
            return Uni.createFrom().voidItem();
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.uni-void.bytes")
        Uni<Void> uniVoidBytes(byte[] payload) {
            Seen.ran("t.matrix.method-nonblocking.uni-void.bytes", payload);
            return Uni.createFrom().voidItem();
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.uni-void.string")
        Uni<Void> uniVoidString(String payload) {
            Seen.ran("t.matrix.method-nonblocking.uni-void.string", payload);
            return Uni.createFrom().voidItem();
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.uni-void.json-object")
        Uni<Void> uniVoidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.method-nonblocking.uni-void.json-object", payload);
            return Uni.createFrom().voidItem();
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.completion-stage.json")
        CompletionStage<Outcome> completionStageJson(Ping payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.method-nonblocking.completion-stage.json", payload));
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.completion-stage.bytes")
        CompletionStage<Outcome> completionStageBytes(byte[] payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.method-nonblocking.completion-stage.bytes", payload));
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.completion-stage.string")
        CompletionStage<Outcome> completionStageString(String payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.method-nonblocking.completion-stage.string", payload));
        }

        @NonBlocking
        @Subscriber("t.matrix.method-nonblocking.completion-stage.json-object")
        CompletionStage<Outcome> completionStageJsonObject(JsonObject payload) {
            return CompletableFuture
                    .completedFuture(Seen.ran("t.matrix.method-nonblocking.completion-stage.json-object", payload));
        }
    }

    public static class MethodBlocking {
        @Blocking
        @Subscriber("t.matrix.method-blocking.outcome.json")
        Outcome outcomeJson(Ping payload) {
            return Seen.ran("t.matrix.method-blocking.outcome.json", payload);
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.outcome.bytes")
        Outcome outcomeBytes(byte[] payload) {
            return Seen.ran("t.matrix.method-blocking.outcome.bytes", payload);
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.outcome.string")
        Outcome outcomeString(String payload) {
            return Seen.ran("t.matrix.method-blocking.outcome.string", payload);
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.outcome.json-object")
        Outcome outcomeJsonObject(JsonObject payload) {
            return Seen.ran("t.matrix.method-blocking.outcome.json-object", payload);
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.void.json")
        void voidJson(Ping payload) {
            Seen.ran("t.matrix.method-blocking.void.json", payload);
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.void.bytes")
        void voidBytes(byte[] payload) {
            Seen.ran("t.matrix.method-blocking.void.bytes", payload);
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.void.string")
        void voidString(String payload) {
            Seen.ran("t.matrix.method-blocking.void.string", payload);
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.void.json-object")
        void voidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.method-blocking.void.json-object", payload);
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.uni.json")
        Uni<Outcome> uniJson(Ping payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.method-blocking.uni.json", payload));
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.uni.bytes")
        Uni<Outcome> uniBytes(byte[] payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.method-blocking.uni.bytes", payload));
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.uni.string")
        Uni<Outcome> uniString(String payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.method-blocking.uni.string", payload));
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.uni.json-object")
        Uni<Outcome> uniJsonObject(JsonObject payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.method-blocking.uni.json-object", payload));
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.uni-void.json")
        Uni<Void> uniVoidJson(Ping payload) {
            Seen.ran("t.matrix.method-blocking.uni-void.json", payload);
            return Uni.createFrom().voidItem();
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.uni-void.bytes")
        Uni<Void> uniVoidBytes(byte[] payload) {
            Seen.ran("t.matrix.method-blocking.uni-void.bytes", payload);
            return Uni.createFrom().voidItem();
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.uni-void.string")
        Uni<Void> uniVoidString(String payload) {
            Seen.ran("t.matrix.method-blocking.uni-void.string", payload);
            return Uni.createFrom().voidItem();
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.uni-void.json-object")
        Uni<Void> uniVoidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.method-blocking.uni-void.json-object", payload);
            return Uni.createFrom().voidItem();
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.completion-stage.json")
        CompletionStage<Outcome> completionStageJson(Ping payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.method-blocking.completion-stage.json", payload));
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.completion-stage.bytes")
        CompletionStage<Outcome> completionStageBytes(byte[] payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.method-blocking.completion-stage.bytes", payload));
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.completion-stage.string")
        CompletionStage<Outcome> completionStageString(String payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.method-blocking.completion-stage.string", payload));
        }

        @Blocking
        @Subscriber("t.matrix.method-blocking.completion-stage.json-object")
        CompletionStage<Outcome> completionStageJsonObject(JsonObject payload) {
            return CompletableFuture
                    .completedFuture(Seen.ran("t.matrix.method-blocking.completion-stage.json-object", payload));
        }
    }

    public static class MethodVirtual {
        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.outcome.json")
        Outcome outcomeJson(Ping payload) {
            return Seen.ran("t.matrix.method-virtual.outcome.json", payload);
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.outcome.bytes")
        Outcome outcomeBytes(byte[] payload) {
            return Seen.ran("t.matrix.method-virtual.outcome.bytes", payload);
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.outcome.string")
        Outcome outcomeString(String payload) {
            return Seen.ran("t.matrix.method-virtual.outcome.string", payload);
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.outcome.json-object")
        Outcome outcomeJsonObject(JsonObject payload) {
            return Seen.ran("t.matrix.method-virtual.outcome.json-object", payload);
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.void.json")
        void voidJson(Ping payload) {
            Seen.ran("t.matrix.method-virtual.void.json", payload);
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.void.bytes")
        void voidBytes(byte[] payload) {
            Seen.ran("t.matrix.method-virtual.void.bytes", payload);
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.void.string")
        void voidString(String payload) {
            Seen.ran("t.matrix.method-virtual.void.string", payload);
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.void.json-object")
        void voidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.method-virtual.void.json-object", payload);
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.uni.json")
        Uni<Outcome> uniJson(Ping payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.method-virtual.uni.json", payload));
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.uni.bytes")
        Uni<Outcome> uniBytes(byte[] payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.method-virtual.uni.bytes", payload));
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.uni.string")
        Uni<Outcome> uniString(String payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.method-virtual.uni.string", payload));
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.uni.json-object")
        Uni<Outcome> uniJsonObject(JsonObject payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.method-virtual.uni.json-object", payload));
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.uni-void.json")
        Uni<Void> uniVoidJson(Ping payload) {
            Seen.ran("t.matrix.method-virtual.uni-void.json", payload);
            return Uni.createFrom().voidItem();
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.uni-void.bytes")
        Uni<Void> uniVoidBytes(byte[] payload) {
            Seen.ran("t.matrix.method-virtual.uni-void.bytes", payload);
            return Uni.createFrom().voidItem();
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.uni-void.string")
        Uni<Void> uniVoidString(String payload) {
            Seen.ran("t.matrix.method-virtual.uni-void.string", payload);
            return Uni.createFrom().voidItem();
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.uni-void.json-object")
        Uni<Void> uniVoidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.method-virtual.uni-void.json-object", payload);
            return Uni.createFrom().voidItem();
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.completion-stage.json")
        CompletionStage<Outcome> completionStageJson(Ping payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.method-virtual.completion-stage.json", payload));
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.completion-stage.bytes")
        CompletionStage<Outcome> completionStageBytes(byte[] payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.method-virtual.completion-stage.bytes", payload));
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.completion-stage.string")
        CompletionStage<Outcome> completionStageString(String payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.method-virtual.completion-stage.string", payload));
        }

        @RunOnVirtualThread
        @Subscriber("t.matrix.method-virtual.completion-stage.json-object")
        CompletionStage<Outcome> completionStageJsonObject(JsonObject payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.method-virtual.completion-stage.json-object", payload));
        }
    }

    @NonBlocking
    public static class ClassNonBlocking {
        @Subscriber("t.matrix.class-nonblocking.outcome.json")
        Outcome outcomeJson(Ping payload) {
            return Seen.ran("t.matrix.class-nonblocking.outcome.json", payload);
        }

        @Subscriber("t.matrix.class-nonblocking.outcome.bytes")
        Outcome outcomeBytes(byte[] payload) {
            return Seen.ran("t.matrix.class-nonblocking.outcome.bytes", payload);
        }

        @Subscriber("t.matrix.class-nonblocking.outcome.string")
        Outcome outcomeString(String payload) {
            return Seen.ran("t.matrix.class-nonblocking.outcome.string", payload);
        }

        @Subscriber("t.matrix.class-nonblocking.outcome.json-object")
        Outcome outcomeJsonObject(JsonObject payload) {
            return Seen.ran("t.matrix.class-nonblocking.outcome.json-object", payload);
        }

        @Subscriber("t.matrix.class-nonblocking.void.json")
        void voidJson(Ping payload) {
            Seen.ran("t.matrix.class-nonblocking.void.json", payload);
        }

        @Subscriber("t.matrix.class-nonblocking.void.bytes")
        void voidBytes(byte[] payload) {
            Seen.ran("t.matrix.class-nonblocking.void.bytes", payload);
        }

        @Subscriber("t.matrix.class-nonblocking.void.string")
        void voidString(String payload) {
            Seen.ran("t.matrix.class-nonblocking.void.string", payload);
        }

        @Subscriber("t.matrix.class-nonblocking.void.json-object")
        void voidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.class-nonblocking.void.json-object", payload);
        }

        @Subscriber("t.matrix.class-nonblocking.uni.json")
        Uni<Outcome> uniJson(Ping payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.class-nonblocking.uni.json", payload));
        }

        @Subscriber("t.matrix.class-nonblocking.uni.bytes")
        Uni<Outcome> uniBytes(byte[] payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.class-nonblocking.uni.bytes", payload));
        }

        @Subscriber("t.matrix.class-nonblocking.uni.string")
        Uni<Outcome> uniString(String payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.class-nonblocking.uni.string", payload));
        }

        @Subscriber("t.matrix.class-nonblocking.uni.json-object")
        Uni<Outcome> uniJsonObject(JsonObject payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.class-nonblocking.uni.json-object", payload));
        }

        @Subscriber("t.matrix.class-nonblocking.uni-void.json")
        Uni<Void> uniVoidJson(Ping payload) {
            Seen.ran("t.matrix.class-nonblocking.uni-void.json", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.class-nonblocking.uni-void.bytes")
        Uni<Void> uniVoidBytes(byte[] payload) {
            Seen.ran("t.matrix.class-nonblocking.uni-void.bytes", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.class-nonblocking.uni-void.string")
        Uni<Void> uniVoidString(String payload) {
            Seen.ran("t.matrix.class-nonblocking.uni-void.string", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.class-nonblocking.uni-void.json-object")
        Uni<Void> uniVoidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.class-nonblocking.uni-void.json-object", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.class-nonblocking.completion-stage.json")
        CompletionStage<Outcome> completionStageJson(Ping payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.class-nonblocking.completion-stage.json", payload));
        }

        @Subscriber("t.matrix.class-nonblocking.completion-stage.bytes")
        CompletionStage<Outcome> completionStageBytes(byte[] payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.class-nonblocking.completion-stage.bytes", payload));
        }

        @Subscriber("t.matrix.class-nonblocking.completion-stage.string")
        CompletionStage<Outcome> completionStageString(String payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.class-nonblocking.completion-stage.string", payload));
        }

        @Subscriber("t.matrix.class-nonblocking.completion-stage.json-object")
        CompletionStage<Outcome> completionStageJsonObject(JsonObject payload) {
            return CompletableFuture
                    .completedFuture(Seen.ran("t.matrix.class-nonblocking.completion-stage.json-object", payload));
        }
    }

    @Blocking
    public static class ClassBlocking {
        @Subscriber("t.matrix.class-blocking.outcome.json")
        Outcome outcomeJson(Ping payload) {
            return Seen.ran("t.matrix.class-blocking.outcome.json", payload);
        }

        @Subscriber("t.matrix.class-blocking.outcome.bytes")
        Outcome outcomeBytes(byte[] payload) {
            return Seen.ran("t.matrix.class-blocking.outcome.bytes", payload);
        }

        @Subscriber("t.matrix.class-blocking.outcome.string")
        Outcome outcomeString(String payload) {
            return Seen.ran("t.matrix.class-blocking.outcome.string", payload);
        }

        @Subscriber("t.matrix.class-blocking.outcome.json-object")
        Outcome outcomeJsonObject(JsonObject payload) {
            return Seen.ran("t.matrix.class-blocking.outcome.json-object", payload);
        }

        @Subscriber("t.matrix.class-blocking.void.json")
        void voidJson(Ping payload) {
            Seen.ran("t.matrix.class-blocking.void.json", payload);
        }

        @Subscriber("t.matrix.class-blocking.void.bytes")
        void voidBytes(byte[] payload) {
            Seen.ran("t.matrix.class-blocking.void.bytes", payload);
        }

        @Subscriber("t.matrix.class-blocking.void.string")
        void voidString(String payload) {
            Seen.ran("t.matrix.class-blocking.void.string", payload);
        }

        @Subscriber("t.matrix.class-blocking.void.json-object")
        void voidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.class-blocking.void.json-object", payload);
        }

        @Subscriber("t.matrix.class-blocking.uni.json")
        Uni<Outcome> uniJson(Ping payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.class-blocking.uni.json", payload));
        }

        @Subscriber("t.matrix.class-blocking.uni.bytes")
        Uni<Outcome> uniBytes(byte[] payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.class-blocking.uni.bytes", payload));
        }

        @Subscriber("t.matrix.class-blocking.uni.string")
        Uni<Outcome> uniString(String payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.class-blocking.uni.string", payload));
        }

        @Subscriber("t.matrix.class-blocking.uni.json-object")
        Uni<Outcome> uniJsonObject(JsonObject payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.class-blocking.uni.json-object", payload));
        }

        @Subscriber("t.matrix.class-blocking.uni-void.json")
        Uni<Void> uniVoidJson(Ping payload) {
            Seen.ran("t.matrix.class-blocking.uni-void.json", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.class-blocking.uni-void.bytes")
        Uni<Void> uniVoidBytes(byte[] payload) {
            Seen.ran("t.matrix.class-blocking.uni-void.bytes", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.class-blocking.uni-void.string")
        Uni<Void> uniVoidString(String payload) {
            Seen.ran("t.matrix.class-blocking.uni-void.string", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.class-blocking.uni-void.json-object")
        Uni<Void> uniVoidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.class-blocking.uni-void.json-object", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.class-blocking.completion-stage.json")
        CompletionStage<Outcome> completionStageJson(Ping payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.class-blocking.completion-stage.json", payload));
        }

        @Subscriber("t.matrix.class-blocking.completion-stage.bytes")
        CompletionStage<Outcome> completionStageBytes(byte[] payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.class-blocking.completion-stage.bytes", payload));
        }

        @Subscriber("t.matrix.class-blocking.completion-stage.string")
        CompletionStage<Outcome> completionStageString(String payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.class-blocking.completion-stage.string", payload));
        }

        @Subscriber("t.matrix.class-blocking.completion-stage.json-object")
        CompletionStage<Outcome> completionStageJsonObject(JsonObject payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.class-blocking.completion-stage.json-object", payload));
        }
    }

    @RunOnVirtualThread
    public static class ClassVirtual {
        @Subscriber("t.matrix.class-virtual.outcome.json")
        Outcome outcomeJson(Ping payload) {
            return Seen.ran("t.matrix.class-virtual.outcome.json", payload);
        }

        @Subscriber("t.matrix.class-virtual.outcome.bytes")
        Outcome outcomeBytes(byte[] payload) {
            return Seen.ran("t.matrix.class-virtual.outcome.bytes", payload);
        }

        @Subscriber("t.matrix.class-virtual.outcome.string")
        Outcome outcomeString(String payload) {
            return Seen.ran("t.matrix.class-virtual.outcome.string", payload);
        }

        @Subscriber("t.matrix.class-virtual.outcome.json-object")
        Outcome outcomeJsonObject(JsonObject payload) {
            return Seen.ran("t.matrix.class-virtual.outcome.json-object", payload);
        }

        @Subscriber("t.matrix.class-virtual.void.json")
        void voidJson(Ping payload) {
            Seen.ran("t.matrix.class-virtual.void.json", payload);
        }

        @Subscriber("t.matrix.class-virtual.void.bytes")
        void voidBytes(byte[] payload) {
            Seen.ran("t.matrix.class-virtual.void.bytes", payload);
        }

        @Subscriber("t.matrix.class-virtual.void.string")
        void voidString(String payload) {
            Seen.ran("t.matrix.class-virtual.void.string", payload);
        }

        @Subscriber("t.matrix.class-virtual.void.json-object")
        void voidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.class-virtual.void.json-object", payload);
        }

        @Subscriber("t.matrix.class-virtual.uni.json")
        Uni<Outcome> uniJson(Ping payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.class-virtual.uni.json", payload));
        }

        @Subscriber("t.matrix.class-virtual.uni.bytes")
        Uni<Outcome> uniBytes(byte[] payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.class-virtual.uni.bytes", payload));
        }

        @Subscriber("t.matrix.class-virtual.uni.string")
        Uni<Outcome> uniString(String payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.class-virtual.uni.string", payload));
        }

        @Subscriber("t.matrix.class-virtual.uni.json-object")
        Uni<Outcome> uniJsonObject(JsonObject payload) {
            return Uni.createFrom().item(Seen.ran("t.matrix.class-virtual.uni.json-object", payload));
        }

        @Subscriber("t.matrix.class-virtual.uni-void.json")
        Uni<Void> uniVoidJson(Ping payload) {
            Seen.ran("t.matrix.class-virtual.uni-void.json", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.class-virtual.uni-void.bytes")
        Uni<Void> uniVoidBytes(byte[] payload) {
            Seen.ran("t.matrix.class-virtual.uni-void.bytes", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.class-virtual.uni-void.string")
        Uni<Void> uniVoidString(String payload) {
            Seen.ran("t.matrix.class-virtual.uni-void.string", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.class-virtual.uni-void.json-object")
        Uni<Void> uniVoidJsonObject(JsonObject payload) {
            Seen.ran("t.matrix.class-virtual.uni-void.json-object", payload);
            return Uni.createFrom().voidItem();
        }

        @Subscriber("t.matrix.class-virtual.completion-stage.json")
        CompletionStage<Outcome> completionStageJson(Ping payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.class-virtual.completion-stage.json", payload));
        }

        @Subscriber("t.matrix.class-virtual.completion-stage.bytes")
        CompletionStage<Outcome> completionStageBytes(byte[] payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.class-virtual.completion-stage.bytes", payload));
        }

        @Subscriber("t.matrix.class-virtual.completion-stage.string")
        CompletionStage<Outcome> completionStageString(String payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.class-virtual.completion-stage.string", payload));
        }

        @Subscriber("t.matrix.class-virtual.completion-stage.json-object")
        CompletionStage<Outcome> completionStageJsonObject(JsonObject payload) {
            return CompletableFuture.completedFuture(Seen.ran("t.matrix.class-virtual.completion-stage.json-object", payload));
        }
    }
}
