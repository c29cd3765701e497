package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.FailureInfo;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.HandlerResult;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;

/**
 * What a handler's result means: an outcome, or a failure (a throw, a null outcome, a value of another type), a
 * failure of a {@code deadLetterOn} type marked to be dead-lettered at once.
 */
final class ResultReading {

    private final SubscriberDefinition.ReturnKind returnKind;
    private final DeadLetterOn deadLetterOn;

    ResultReading(SubscriberDefinition definition) {
        this.returnKind = definition.returnKind;
        this.deadLetterOn = DeadLetterOn.of(definition.subscription);
    }

    /** @param async whether it is what an asynchronous result ({@code Uni}, {@code CompletionStage}) completed with */
    HandlerResult read(Object result, boolean async) {
        if (result instanceof Outcome outcome) {
            return HandlerResult.handled(outcome);
        }
        if (result instanceof HandlerInvocation.Failed failed) {
            return failure(failed.cause());
        }
        if (result == null) {
            boolean returnsVoid = async ? returnKind == SubscriberDefinition.ReturnKind.ASYNC_VOID
                    : returnKind == SubscriberDefinition.ReturnKind.VOID;
            return returnsVoid ? HandlerResult.handled(Outcome.ack())
                    : failure(new NullPointerException("the handler returned a null Outcome"));
        }
        return failure(new IllegalStateException("the handler returned " + result.getClass().getName()
                + " where an Outcome was expected"));
    }

    /** A failure, dead-lettered at once when it is of a {@code deadLetterOn} type. */
    HandlerResult failure(Throwable cause) {
        return new HandlerResult.Failed(FailureInfo.of(cause), deadLetterOn.matches(cause));
    }
}
