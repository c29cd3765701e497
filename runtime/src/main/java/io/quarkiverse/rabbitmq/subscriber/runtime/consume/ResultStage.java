package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.vertx.core.Context;

/**
 * One step of what a handling came to on its way back to settlement: the handler's own result (an {@code Outcome}, a
 * {@code CompletionStage}, null), a thrown {@link Verdict}, an undecodable {@link Verdict} or
 * {@link Verdict#NOT_RUN}.
 */
@FunctionalInterface
public interface ResultStage {

    /** @param async whether it is what an asynchronous result completed with */
    void pass(Context context, InboundDelivery delivery, Object result, boolean async);
}
