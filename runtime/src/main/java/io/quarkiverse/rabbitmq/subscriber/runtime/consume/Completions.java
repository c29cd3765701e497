package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.Queue;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.util.internal.PlatformDependent;
import io.vertx.core.Context;

/**
 * Carries results of handlers that ran off the event loop (on workers or virtual threads) back to it. The event loop
 * is woken once per burst of results rather than once per result; settlement then happens there, in one pass.
 */
final class Completions {

    /** What to do with each result, on the event loop. */
    interface Sink {
        void complete(Context context, InboundDelivery delivery, Object result);
    }

    private record Completion(Context context, InboundDelivery delivery, Object result) {
    }

    private final Context eventLoop;
    private final Sink sink;
    private final Queue<Completion> queue = PlatformDependent.newMpscQueue();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();

    Completions(Context eventLoop, Sink sink) {
        this.eventLoop = eventLoop;
        this.sink = sink;
    }

    /** Called on the thread the handler ran on. */
    void offer(Context context, InboundDelivery delivery, Object result) {
        queue.offer(new Completion(context, delivery, result));
        if (drainScheduled.compareAndSet(false, true)) {
            eventLoop.runOnContext(ignored -> drain());
        }
    }

    private void drain() {
        // Reset first: a result offered after this point either is polled below or schedules the next drain.
        drainScheduled.set(false);
        Completion completion;
        while ((completion = queue.poll()) != null) {
            sink.complete(completion.context(), completion.delivery(), completion.result());
        }
    }
}
