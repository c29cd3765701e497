package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.vertx.core.Context;

/** Runs test code on an event-loop context and waits for it, rethrowing what it threw. */
final class OnLoop {

    private OnLoop() {
    }

    static void run(Context context, Runnable task) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        context.runOnContext(ignored -> {
            try {
                task.run();
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        });
        done.get(5, TimeUnit.SECONDS);
    }
}
