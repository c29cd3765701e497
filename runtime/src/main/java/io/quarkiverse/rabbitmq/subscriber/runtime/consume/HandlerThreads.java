package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkus.virtual.threads.VirtualThreadsRecorder;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * Runs an off-loop handler's work on its thread: a worker of the subscription's {@link WorkerLane} (with the
 * delivery's context current, as {@code executeBlocking} would have it) or a new virtual thread.
 */
public final class HandlerThreads {

    private final boolean virtual;
    private final WorkerLane workers = new WorkerLane(task -> Infrastructure.getDefaultWorkerPool().execute(task));

    public HandlerThreads(SubscriberDefinition.ExecutionModel model) {
        this.virtual = model == SubscriberDefinition.ExecutionModel.VIRTUAL_THREAD;
    }

    /** Throws only when the pool refuses the work (it is shut down). */
    public void run(Context context, InboundDelivery delivery, Runnable work) {
        if (virtual) {
            VirtualThreadsRecorder.getCurrent().execute(work);
        } else {
            workers.submit(() -> ((ContextInternal) context).dispatch(delivery, ignored -> work.run()));
        }
    }
}
