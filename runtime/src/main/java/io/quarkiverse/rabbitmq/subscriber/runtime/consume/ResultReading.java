package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.FailureInfo;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.SettlementPlan;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * What a handler's result becomes, once: its {@link Verdict}, read (an outcome, or a failure: a throw, a null outcome,
 * a value of another type; one of a {@code deadLetterOn} type marked to be dead-lettered at once) and decided by the
 * {@link SettlementPlan} from what the delivery says (its attempt, a quorum queue's delivery count, its redelivered
 * flag).
 */
public final class ResultReading {

    private final SubscriptionSpec subscription;
    private final SubscriberDefinition.ReturnKind returnKind;
    private final DeadLetterOn deadLetterOn;

    public ResultReading(SubscriberDefinition definition) {
        this.subscription = definition.subscription;
        this.returnKind = definition.returnKind;
        this.deadLetterOn = DeadLetterOn.of(definition.subscription);
    }

    /** The delivery's verdict, read from what its handling returned and decided. */
    public Verdict verdict(InboundDelivery delivery, Object result, boolean async) {
        return decided(delivery, read(result, async));
    }

    /** The delivery's verdict for a failure found after the handler returned (an output that reached no queue). */
    public Verdict failed(InboundDelivery delivery, Throwable cause) {
        return decided(delivery, failure(cause));
    }

    /** The verdict, decided; one decided already (a duplicate, a delivery never run) as it is. */
    private Verdict decided(InboundDelivery delivery, Verdict read) {
        if (read.isDecided()) {
            return read;
        }
        return read.decided(SettlementPlan.decide(subscription, delivery.attempt(),
                deliveryCount(subscription, delivery), delivery.redelivered(), read));
    }

    /** A quorum queue's count of this message's earlier deliveries; classic queues have none. */
    static int deliveryCount(SubscriptionSpec subscription, InboundDelivery delivery) {
        return subscription.quorum() ? delivery.redeliveryCount().orElse(0) : 0;
    }

    /**
     * What the handling returned, read: the handler's outcome; what happened instead (a verdict the handling returned: a
     * throw, an undecodable body, a duplicate, a delivery not run), a throw of a {@code deadLetterOn} type marked to be
     * dead-lettered at once; a null or foreign value as a failure.
     *
     * @param async whether it is what an asynchronous result ({@code Uni}, {@code CompletionStage}) completed with
     */
    public Verdict read(Object result, boolean async) {
        if (result instanceof Outcome outcome) {
            return Verdict.handled(outcome);
        }
        if (result instanceof Verdict verdict) {
            return verdict.isFailed() && deadLetterOn.matches(verdict.cause())
                    ? Verdict.failed(verdict.failure(), true, verdict.cause())
                    : verdict;
        }
        if (result == null) {
            boolean returnsVoid = async ? returnKind == SubscriberDefinition.ReturnKind.ASYNC_VOID
                    : returnKind == SubscriberDefinition.ReturnKind.VOID;
            return returnsVoid ? Verdict.handled(Outcome.ack())
                    : failure(new NullPointerException("the handler returned a null Outcome"));
        }
        return failure(new IllegalStateException("the handler returned " + result.getClass().getName()
                + " where an Outcome was expected"));
    }

    /**
     * A failure that is no exception of the handler's (a null outcome, a foreign value, an output that reached no queue):
     * logged without its stack; dead-lettered at once when it is of a {@code deadLetterOn} type.
     */
    public Verdict failure(Throwable cause) {
        return Verdict.failed(FailureInfo.of(cause), deadLetterOn.matches(cause), null);
    }
}
