package io.quarkiverse.rabbitmq.subscriber.runtime.batch;

import io.quarkiverse.rabbitmq.subscriber.runtime.consume.HandlerThreads;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.Handling;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/**
 * Calls a closed batch's handling: right here for an event-loop handler, else on the handler's thread (a worker of
 * the subscription's lane, a virtual thread), whose result comes back to the batch's event-loop context. Either way
 * the result goes to {@link BatchResults}.
 */
public final class InvokeBatch implements BatchStage {

    /** null for an event-loop handler. */
    private final HandlerThreads threads;
    private final Handling<DeliveryBatch> handling;
    private final BatchResults results;

    public InvokeBatch(HandlerThreads threads, Handling<DeliveryBatch> handling, BatchResults results) {
        this.threads = threads;
        this.handling = handling;
        this.results = results;
    }

    @Override
    public void pass(DeliveryBatch batch) {
        if (threads == null) {
            results.pass(batch, handling.run(batch), false);
            return;
        }
        try {
            threads.run(batch.context(), batch.items().get(0), () -> {
                Object result = handling.run(batch);
                batch.context().runOnContext(ignored -> results.pass(batch, result, false));
            });
        } catch (Throwable t) {
            // The pool refused the work (it is shut down): still a result to settle, here on the loop.
            results.pass(batch, Verdict.thrown(t), false);
        }
    }
}
