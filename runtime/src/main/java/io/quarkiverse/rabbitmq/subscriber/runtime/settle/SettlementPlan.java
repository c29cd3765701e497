package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.time.Duration;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * The one place that decides what a delivery's result sends: a pure function of the subscription, what the delivery
 * says (its retry count, a quorum queue's delivery count, its redelivered flag) and the handler's result. Its table is
 * the one in {@code docs/modules/ROOT/pages/retries.adoc}, sections "What each outcome sends" and "What failures
 * become":
 * <ul>
 * <li>ack: {@code basic.ack}; drop: {@code basic.reject} without requeue, everywhere (on a classic queue under a cap a
 * drop never reaches the dead-letter queue).</li>
 * <li>retry, classic under a cap of M: a copy with the count raised by one, then ack; at the M-th delivery the dead
 * letter instead (without a dead-letter queue, a reject without requeue). Elsewhere {@code basic.reject} requeue.</li>
 * <li>retryAfter: a copy delayed by the subscription's strategy (the plan says how long, the strategy where it waits),
 * then ack. The copy counts as a delivery, so at the cap it is the dead letter.</li>
 * <li>a failure: a retry, counted like one, whose copies and dead letter carry the failure. On a quorum queue it is
 * requeued: the server counts, and its limit (the cap's, or the queue's own) ends it. On a classic queue without a cap,
 * the {@code redelivered} rule: a first delivery is requeued, a redelivery rejected without requeue, so a poison message
 * costs two deliveries and the service keeps no state for it.</li>
 * <li>a failure under a back-off ({@code @Backoff}): as {@code retryAfter} with the back-off's wait for this attempt,
 * carrying the failure; the rules make a back-off come with a cap.</li>
 * <li>with the server's delayed retry ({@code @RetryDelay}, a quorum queue on RabbitMQ 4.3+) a {@code retryAfter} is a
 * retry too: {@code basic.reject} with requeue, and the server waits.</li>
 * <li>an undecodable body is never retried: its dead letter at once where a classic queue has one, else a reject
 * without requeue.</li>
 * <li>on a dead-letter queue (another subscription's {@code deadLetter}), a message that would be rejected without
 * requeue because it cannot be handled (undecodable, or failed again at its redelivery) is parked: published,
 * confirmed, to the queue's parking queue ({@code <queue>.parked}) with the reason, then acked, and the subscriber goes
 * on with the others. An explicit {@code drop} still rejects.</li>
 * </ul>
 * A quorum queue counts the deliveries of one message, but a delayed copy is a new message the server counts from
 * zero. So on a quorum queue a delivery's attempt is its retry-count header (what the copies before it used) plus the
 * server's {@code x-delivery-count}: a message that never waited has no header and the server alone counts and
 * dead-letters it; once a copy carries a header, the runtime ends the loop at the cap by publishing the dead letter
 * itself. Whatever the mix of {@code retry} and {@code retryAfter}, one message gets at most M deliveries.
 */
public final class SettlementPlan {

    private SettlementPlan() {
    }

    /**
     * @param retryCount the retry-count header, 1 when absent
     * @param deliveryCount a quorum queue's {@code x-delivery-count}, 0 when absent (and on classic queues)
     */
    public static Settlement decide(SubscriptionSpec subscription, int retryCount, int deliveryCount,
            boolean redelivered, Verdict read) {
        if (read.isDecided()) {
            // Decided where it was read (a duplicate, a delivery never run).
            return read.settlement();
        }
        // The deliveries of this message so far, this one included.
        int attempt = subscription.quorum() ? saturatedSum(retryCount, deliveryCount) : retryCount;
        if (read.kind() == Verdict.Kind.UNDECODABLE) {
            return subscription.runtimeCounts() && subscription.deadLetter != null
                    ? deadLetter(subscription, attempt, read.failure())
                    : rejectOrPark(subscription, attempt, read.failure());
        }
        if (read.isFailed()) {
            if (read.deadLetterNow()) {
                return deadLetterNow(subscription, attempt, read.failure(), null);
            }
            if (subscription.retriesInPlace()) {
                return again(subscription, attempt, subscription.backoff().waits()
                        ? subscription.backoff().after(attempt)
                        : Duration.ZERO, read.failure());
            }
            return subscription.backoff().waits()
                    ? later(subscription, attempt, subscription.backoff().after(attempt), read.failure())
                    : retry(subscription, attempt, retryCount, redelivered, read.failure());
        }
        Outcome outcome = read.outcome();
        if (subscription.retriesInPlace() && (outcome.kind() == Outcome.Kind.RETRY
                || outcome.kind() == Outcome.Kind.RETRY_AFTER)) {
            return again(subscription, attempt, outcome.kind() == Outcome.Kind.RETRY ? Duration.ZERO : outcome.delay(),
                    null);
        }
        return switch (outcome.kind()) {
            case ACK -> Settlement.ACK;
            case DROP -> Settlement.REJECT;
            case DEAD_LETTER -> deadLetterNow(subscription, attempt, null, outcome.reason());
            case RETRY -> retry(subscription, attempt, retryCount, redelivered, null);
            // With the server's delayed retry the server waits, whatever the handler asked for.
            case RETRY_AFTER -> subscription.serverDelaysRetries() ? retry(subscription, attempt, retryCount, redelivered,
                    null) : later(subscription, attempt, outcome.delay(), null);
        };
    }

    /**
     * A copy that waits {@code delay} where the subscription's strategy says ({@code retryAfter}, or a failure under a
     * back-off). The copy counts as a delivery, so at the cap it is the dead letter.
     */
    private static Settlement later(SubscriptionSpec subscription, int attempt, Duration delay, FailureInfo failure) {
        return capped(subscription) && attempt >= subscription.maxAttempts
                ? deadLetterOrReject(subscription, attempt, failure)
                : new Settlement.Republish(Settlement.Target.COPY, subscription.queue, attempt + 1, failure, delay,
                        confirmed(subscription));
    }

    /**
     * A partition's retry: handled again in place after {@code delay}, the delivery held (nothing of its partition
     * passes it); at the cap, to the dead-letter queue as {@link #deadLetterNow} sends it (the runtime's dead letter on
     * a classic queue, the quorum queue's own route on a quorum one).
     */
    private static Settlement again(SubscriptionSpec subscription, int attempt, Duration delay, FailureInfo failure) {
        return capped(subscription) && attempt >= subscription.maxAttempts
                ? deadLetterNow(subscription, attempt, failure, null)
                : new Settlement.Again(delay, attempt + 1);
    }

    /**
     * To the dead-letter queue whatever attempts remain: the runtime's dead letter on a classic queue under a cap; on a
     * quorum queue, a reject without requeue, which its dead-letter route takes (without one the server drops it); with
     * no dead-letter queue at all, a drop.
     */
    private static Settlement deadLetterNow(SubscriptionSpec subscription, int attempt, FailureInfo failure,
            String reason) {
        if (subscription.runtimeCounts() && subscription.deadLetter != null) {
            return new Settlement.Republish(Settlement.Target.DEAD_LETTER, subscription.deadLetter, attempt, failure,
                    Duration.ZERO, confirmed(subscription), reason);
        }
        return Settlement.REJECT;
    }

    private static Settlement retry(SubscriptionSpec subscription, int attempt, int retryCount, boolean redelivered,
            FailureInfo failure) {
        if (subscription.runtimeCounts()) {
            if (attempt >= subscription.maxAttempts) {
                return deadLetterOrReject(subscription, attempt, failure);
            }
            return new Settlement.Republish(Settlement.Target.COPY, subscription.queue, attempt + 1, failure,
                    Duration.ZERO, confirmed(subscription));
        }
        if (subscription.quorum()) {
            // A delayed copy's deliveries are counted by the header and the server together; the server's limit
            // counts only this copy's, so the runtime ends the loop where the sum reaches the cap.
            if (subscription.maxAttempts > 0 && retryCount > 1 && attempt >= subscription.maxAttempts) {
                return deadLetter(subscription, attempt, failure);
            }
            // The server counts every delivery of a quorum queue: its limit (the cap's, or one an operator declared
            // on a queue this service does not declare) and its dead-letter route end the loop. Without any limit,
            // RabbitMQ 4 stops at 20 redeliveries; RabbitMQ 3 redelivers for ever (the startup log says so).
            return Settlement.REQUEUE;
        }
        if (failure == null) {
            return Settlement.REQUEUE;
        }
        return redelivered ? rejectOrPark(subscription, attempt, failure) : Settlement.REQUEUE;
    }

    /**
     * Where a message would be rejected without requeue because it cannot be handled: parked instead when the queue is
     * another subscription's dead-letter queue, whose messages must never be lost. The letter keeps the failure headers
     * of what dead-lettered it; why its reader could not handle it goes in the parking reason.
     */
    private static Settlement rejectOrPark(SubscriptionSpec subscription, int attempt, FailureInfo failure) {
        if (!subscription.readsDeadLetters) {
            return Settlement.REJECT;
        }
        String reason = failure == null ? "its handler asked for another attempt at the last one"
                : failure.type() + ": " + failure.message();
        return new Settlement.Republish(Settlement.Target.PARK, subscription.parkingQueue(), attempt, null,
                Duration.ZERO, true, reason);
    }

    /** Whether a cap ends this subscription's delayed loops: a classic cap, or a quorum cap counted with the header. */
    private static boolean capped(SubscriptionSpec subscription) {
        return subscription.maxAttempts > 0;
    }

    /** The cap is reached: the dead letter, or where there is no dead-letter queue, the queue's own route. */
    private static Settlement deadLetterOrReject(SubscriptionSpec subscription, int attempt, FailureInfo failure) {
        return subscription.deadLetter == null ? rejectOrPark(subscription, attempt, failure)
                : deadLetter(subscription, attempt, failure);
    }

    private static Settlement deadLetter(SubscriptionSpec subscription, int attempt, FailureInfo failure) {
        return new Settlement.Republish(Settlement.Target.DEAD_LETTER, subscription.deadLetter, attempt, failure,
                Duration.ZERO, confirmed(subscription));
    }

    private static boolean confirmed(SubscriptionSpec subscription) {
        // A stream's dead letter is its only copy: the log keeps no route to one.
        return subscription.stream() || subscription.retryPublish == RetryPublish.CONFIRMED;
    }

    private static int saturatedSum(int a, int b) {
        long sum = (long) a + b;
        return sum > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) sum;
    }
}
