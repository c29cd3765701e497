package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.concurrent.CompletionStage;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * A handler's asynchronous result ({@code Uni}, {@code CompletionStage}) is passed on once it completes, on the
 * delivery's event-loop context; at once when it completed before the handler returned ({@link DoneStages}). A plain
 * result passes straight on.
 */
public final class AwaitResult implements ResultStage {

    private final ResultStage next;

    public AwaitResult(ResultStage next) {
        this.next = next;
    }

    @Override
    public void pass(Context context, InboundDelivery delivery, Object result, boolean async) {
        if (!(result instanceof CompletionStage<?> stage)) {
            next.pass(context, delivery, result, async);
        } else if (DoneStages.isDone(stage)) {
            passOn(context, delivery, DoneStages.resultOf(stage));
        } else {
            stage.whenComplete((value, failure) -> passOn(context, delivery,
                    failure != null ? Verdict.thrown(DoneStages.unwrap(failure)) : value));
        }
    }

    /** What an asynchronous result came to, on the delivery's event-loop context. */
    private void passOn(Context context, InboundDelivery delivery, Object completed) {
        // The context may be current on a worker thread too (executeBlocking dispatches on it): go on only on the
        // event loop itself.
        if (Context.isOnEventLoopThread() && Vertx.currentContext() == context) {
            next.pass(context, delivery, completed, true);
        } else {
            context.runOnContext(ignored -> next.pass(context, delivery, completed, true));
        }
    }
}
