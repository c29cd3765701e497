package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;

import io.netty.util.concurrent.SingleThreadEventExecutor;
import io.netty.util.internal.PlatformDependent;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * Carries results of handlers that ran off the event loop (on workers or virtual threads) back to it. The event loop
 * is woken once per burst of results rather than once per result; settlement then happens there, in one pass.
 * <p>
 * With {@code mayWait} (a subscription without a concurrency bound, whose results free no place another delivery
 * waits for) results need not wake the loop at all while it is due to wake soon anyway, for a timer set to flush paced
 * acks: their drain waits in the loop's queue for that wake-up (Netty runs it ahead of the timer's task), and their
 * acks leave in the flush they would have waited for. At a steady rate that spares the handler's core one thread
 * wake-up per message, the loop's. The result that {@code mayWait} refuses wakes the loop: the acks would leave at
 * once, or the broker's credit (the prefetch) runs low.
 */
public final class Completions {

    /** What to do with each result, on the event loop. */
    interface Sink {
        void complete(Context context, InboundDelivery delivery, Object result);
    }

    private record Completion(Context context, InboundDelivery delivery, Object result) {
    }

    private static final IntPredicate NEVER = results -> false;

    private final ContextInternal eventLoop;
    private final Sink sink;
    private final IntPredicate mayWait;
    private final Queue<Completion> queue = PlatformDependent.newMpscQueue();
    /** Results offered since the last drain began; the first schedules the next drain. */
    private final AtomicInteger offered = new AtomicInteger();
    /** The scheduled drain waits for the loop's next wake-up (it was queued without waking it). */
    private volatile boolean drainLazy;
    private final Runnable drainOnContext;

    public Completions(Context eventLoop, Sink sink) {
        this(eventLoop, NEVER, sink);
    }

    /** @param mayWait whether so many results may wait for the loop's next wake-up (it is due soon); any thread */
    public Completions(Context eventLoop, IntPredicate mayWait, Sink sink) {
        this.eventLoop = (ContextInternal) eventLoop;
        this.sink = sink;
        this.mayWait = mayWait;
        this.drainOnContext = () -> this.eventLoop.dispatch(ignored -> drain());
    }

    /** Called on the thread the handler ran on. */
    void offer(Context context, InboundDelivery delivery, Object result) {
        queue.offer(new Completion(context, delivery, result));
        int results = offered.incrementAndGet();
        if (results == 1) {
            if (mayWait.test(1) && eventLoop.nettyEventLoop() instanceof SingleThreadEventExecutor loop) {
                drainLazy = true;
                loop.lazyExecute(drainOnContext);
                // The timer may have fired meanwhile: then nothing else is sure to wake the loop.
                if (!mayWait.test(1)) {
                    wake();
                }
            } else {
                drainLazy = false;
                eventLoop.nettyEventLoop().execute(drainOnContext);
            }
        } else if (drainLazy && !mayWait.test(results)) {
            wake();
        }
    }

    /** Wakes the loop, which runs the drain already in its queue. */
    private void wake() {
        drainLazy = false;
        eventLoop.nettyEventLoop().execute(() -> {
        });
    }

    private void drain() {
        // Reset first: a result offered after this point either is polled below or schedules the next drain.
        offered.set(0);
        Completion completion;
        while ((completion = queue.poll()) != null) {
            sink.complete(completion.context(), completion.delivery(), completion.result());
        }
    }
}
