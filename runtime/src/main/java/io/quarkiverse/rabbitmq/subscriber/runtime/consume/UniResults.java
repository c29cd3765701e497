package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.smallrye.mutiny.Uni;

/**
 * What a handler's {@code Uni} becomes for the runtime, which only sees a {@link CompletionStage}: the invoker's return
 * value transformer (set by the build step), subscribing once.
 * <p>
 * Not {@code Uni.subscribeAsCompletionStage()}: where the application has context propagation (quarkus-rest brings
 * it), Mutiny makes that a contextual future, and every {@code whenComplete} on it captures and later restores every
 * thread context (ArC's request context among them) for each delivery. The runtime's own callbacks need none of them:
 * they carry the request context's state and the delivery's event-loop context themselves.
 */
public final class UniResults {

    private UniResults() {
    }

    public static CompletionStage<Object> toCompletionStage(Uni<?> result) {
        CompletableFuture<Object> stage = new CompletableFuture<>();
        if (result == null) {
            stage.completeExceptionally(new NullPointerException("The handler returned null instead of a Uni"));
            return stage;
        }
        result.subscribe().with(stage::complete, stage::completeExceptionally);
        return stage;
    }
}
