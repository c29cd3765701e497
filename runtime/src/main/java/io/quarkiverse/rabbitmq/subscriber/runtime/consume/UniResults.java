package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;

/**
 * What a handler's {@code Uni} becomes for the runtime, which only sees a {@link CompletionStage}: the invoker's return
 * value transformer (set by the build step), subscribing once. A {@code Uni} that has its item at once (the common
 * case) gives a future that is already complete, which the runtime settles without registering a callback
 * ({@link DoneStages}).
 * <p>
 * Neither {@code Uni.subscribeAsCompletionStage()} nor {@code subscribe().with(onItem, onFailure)}: where the
 * application has context propagation (quarkus-rest brings it), Mutiny makes the first a contextual future, whose every
 * {@code whenComplete} captures and later restores every thread context (ArC's request context among them), and
 * decorates both callbacks of the second the same way: two captures of every thread context per delivery. The
 * runtime's own callbacks need none of them: they carry the request context's state and the delivery's event-loop
 * context themselves. So the future subscribes as a plain {@link UniSubscriber}, which Mutiny does not decorate.
 */
public final class UniResults {

    private UniResults() {
    }

    public static CompletionStage<Object> toCompletionStage(Uni<?> result) {
        UniStage stage = new UniStage();
        if (result == null) {
            stage.onFailure(new NullPointerException("The handler returned null instead of a Uni"));
            return stage.future;
        }
        result.subscribe().withSubscriber(stage);
        return stage.future;
    }

    /** Completes its future with the Uni's item or failure; a second signal (a misbehaving Uni) changes nothing. */
    private static final class UniStage implements UniSubscriber<Object> {

        private final CompletableFuture<Object> future = new CompletableFuture<>();

        @Override
        public void onSubscribe(UniSubscription subscription) {
        }

        @Override
        public void onItem(Object item) {
            future.complete(item);
        }

        @Override
        public void onFailure(Throwable failure) {
            future.completeExceptionally(failure);
        }
    }
}
