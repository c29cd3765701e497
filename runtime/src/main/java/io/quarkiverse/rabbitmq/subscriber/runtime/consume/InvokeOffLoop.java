package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.vertx.core.Context;

/**
 * A worker or virtual-thread handler whose deliveries came through the event loop (it has a concurrency bound): the
 * call runs on the handler's thread, the payload decoded there too (a large body must not stall every subscriber on
 * the loop), and the result comes back to the loop with the others of its burst ({@link Completions}).
 */
public final class InvokeOffLoop implements DeliveryStage {

    private final HandlerThreads threads;
    private final Handling<InboundDelivery> handling;
    private final Completions completions;
    private final ResultStage next;

    public InvokeOffLoop(Context eventLoop, HandlerThreads threads, Handling<InboundDelivery> handling, ResultStage next) {
        this.threads = threads;
        this.handling = handling;
        this.next = next;
        this.completions = new Completions(eventLoop, (context, delivery, result) -> next.pass(context, delivery,
                result, false));
    }

    @Override
    public void pass(Context context, InboundDelivery delivery) {
        try {
            threads.run(context, delivery, () -> completions.offer(context, delivery, handling.run(delivery)));
        } catch (Throwable t) {
            // The pool refused the work (it is shut down): still a result to settle, here on the loop.
            next.pass(context, delivery, Verdict.thrown(t), false);
        }
    }
}
