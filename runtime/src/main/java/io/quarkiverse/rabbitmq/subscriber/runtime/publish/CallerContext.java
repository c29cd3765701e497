package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.util.concurrent.CompletableFuture;

import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;

/**
 * Where a publisher's caller hears what became of its publish or request: on the caller's Vert.x context, or on a
 * worker when it had none. Confirms, returns and replies arrive on amqp-client's reader thread, and a continuation
 * that blocks there (another {@code sendConfirmedAndAwait}) would stop the reader from reading the very answer it waits for.
 */
final class CallerContext {

    private CallerContext() {
    }

    /** Runs the task on the caller's context (null: on a worker). */
    static void run(Context caller, Runnable task) {
        if (caller != null) {
            caller.runOnContext(ignored -> task.run());
        } else {
            Infrastructure.getDefaultWorkerPool().execute(task);
        }
    }

    /** Completes the caller's future there, with the value or the failure. */
    static <T> void complete(Context caller, CompletableFuture<T> target, T value, Throwable failure) {
        run(caller, () -> {
            if (failure == null) {
                target.complete(value);
            } else {
                target.completeExceptionally(failure);
            }
        });
    }

    /**
     * Runs the work with the caller's Vert.x context (null when it has none) and delivers its outcome there. Opening a
     * channel waits for the broker: the first publish from an event loop does that on a worker, and comes back to the
     * caller's context afterwards. Once the channel is open, publishing writes a frame and stays on the caller's
     * thread.
     */
    static <T> io.smallrye.mutiny.Uni<T> onCallersContext(java.util.function.BooleanSupplier ready,
            java.util.function.Function<Context, io.smallrye.mutiny.Uni<T>> work) {
        return io.smallrye.mutiny.Uni.createFrom().deferred(() -> {
            Context caller = io.vertx.core.Vertx.currentContext();
            io.smallrye.mutiny.Uni<T> uni = work.apply(caller);
            if (ready.getAsBoolean() || !Context.isOnEventLoopThread()) {
                return uni;
            }
            return uni.runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                    .emitOn(task -> caller.runOnContext(ignored -> task.run()));
        });
    }
}
