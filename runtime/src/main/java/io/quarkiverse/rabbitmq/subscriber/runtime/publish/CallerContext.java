package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.util.concurrent.CompletableFuture;

import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;

/**
 * Where a publisher's caller hears what became of its publish or request: on the caller's Vert.x context, or on a
 * worker when it had none. Confirms, returns and replies arrive on amqp-client's reader thread, and a continuation
 * that blocks there (another {@code sendAndAwait}) would stop the reader from reading the very answer it waits for.
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
}
