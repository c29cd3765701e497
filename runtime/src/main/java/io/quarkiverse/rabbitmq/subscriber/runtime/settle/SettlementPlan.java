package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.time.Duration;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * The one place that decides what a delivery's result sends: a pure function of the subscription, what the delivery
 * says (its retry count, its redelivered flag) and the handler's result. Its table is DESIGN.md's "What an outcome
 * sends" and "Handler failures":
 * <ul>
 * <li>ack: {@code basic.ack}; drop: {@code basic.reject} without requeue, everywhere (on a classic queue under a cap a
 * drop never reaches the dead-letter queue).</li>
 * <li>retry, classic under a cap of M: a copy with the count raised by one, then ack; at the M-th delivery the dead
 * letter instead (without a dead-letter queue, a reject without requeue). Elsewhere {@code basic.reject} requeue.</li>
 * <li>retryAfter: a copy held in the service, then ack; under a cap the copy counts as a delivery, so at the cap it is
 * the dead letter.</li>
 * <li>a failure: a retry, counted like one, whose copies and dead letter carry the failure. Without any cap, the
 * {@code redelivered} rule: a first delivery is requeued, a redelivery rejected without requeue, so a poison message
 * costs two deliveries and the service keeps no state for it.</li>
 * <li>an undecodable body is never retried: its dead letter at once where a classic queue has one, else a reject
 * without requeue.</li>
 * </ul>
 */
public final class SettlementPlan {

    private SettlementPlan() {
    }

    public static Settlement decide(SubscriptionSpec subscription, int retryCount, boolean redelivered,
            HandlerResult result) {
        if (result instanceof HandlerResult.Undecodable undecodable) {
            return subscription.runtimeCounts() && subscription.deadLetter != null
                    ? deadLetter(subscription, retryCount, undecodable.failure())
                    : Settlement.REJECT;
        }
        if (result instanceof HandlerResult.Failed failed) {
            if (subscription.runtimeCounts()) {
                return retryUnderCap(subscription, retryCount, failed.failure());
            }
            if (subscription.serverCounts()) {
                return Settlement.REQUEUE;
            }
            return redelivered ? Settlement.REJECT : Settlement.REQUEUE;
        }
        Outcome outcome = ((HandlerResult.Handled) result).outcome();
        return switch (outcome.kind()) {
            case ACK -> Settlement.ACK;
            case DROP -> Settlement.REJECT;
            case RETRY -> subscription.runtimeCounts() ? retryUnderCap(subscription, retryCount, null)
                    : Settlement.REQUEUE;
            case RETRY_AFTER -> subscription.runtimeCounts() && retryCount >= subscription.maxAttempts
                    ? deadLetterOrReject(subscription, retryCount, null)
                    : new Settlement.Republish(Settlement.Target.COPY, subscription.queue, retryCount + 1, null,
                            outcome.delay(), false);
        };
    }

    private static Settlement retryUnderCap(SubscriptionSpec subscription, int retryCount, FailureInfo failure) {
        if (retryCount >= subscription.maxAttempts) {
            return deadLetterOrReject(subscription, retryCount, failure);
        }
        return new Settlement.Republish(Settlement.Target.COPY, subscription.queue, retryCount + 1, failure,
                Duration.ZERO, confirmed(subscription));
    }

    /** The cap is reached: the dead letter, or where there is no dead-letter queue, the queue's own route. */
    private static Settlement deadLetterOrReject(SubscriptionSpec subscription, int retryCount, FailureInfo failure) {
        return subscription.deadLetter == null ? Settlement.REJECT : deadLetter(subscription, retryCount, failure);
    }

    private static Settlement deadLetter(SubscriptionSpec subscription, int retryCount, FailureInfo failure) {
        return new Settlement.Republish(Settlement.Target.DEAD_LETTER, subscription.deadLetter, retryCount, failure,
                Duration.ZERO, confirmed(subscription));
    }

    private static boolean confirmed(SubscriptionSpec subscription) {
        return subscription.retryPublish == io.quarkiverse.rabbitmq.subscriber.RetryPublish.CONFIRMED;
    }
}
