package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.OutcomeCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.DelayLabel;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * What becomes of a delivery once its settlement is decided, as the outcome counters name it and the log says it:
 * whether it ends in a dead-letter queue (whoever moves it there), and the words for what follows.
 */
public final class DeliveryFate {

    private final SubscriptionSpec subscription;

    public DeliveryFate(SubscriptionSpec subscription) {
        this.subscription = subscription;
    }

    /**
     * Whether this delivery ends in a dead-letter queue: one the runtime publishes, or, on a quorum queue with a
     * dead-letter route, one the server moves there (a reject without requeue, or a requeue past its delivery limit).
     */
    boolean deadLettered(Settlement settlement, InboundDelivery delivery) {
        if (settlement instanceof Settlement.Republish republish) {
            return republish.target() == Settlement.Target.DEAD_LETTER;
        }
        if (!subscription.quorum() || subscription.maxAttempts <= 0 || subscription.deadLetter == null) {
            return false;
        }
        return settlement == Settlement.REJECT || settlement == Settlement.REQUEUE && delivery.attempt() <= 1
                && ResultReading.deliveryCount(subscription, delivery) >= subscription.maxAttempts - 1;
    }

    /** What became of a handled delivery, as metrics and the Dev UI name it. */
    static String label(Outcome outcome, Settlement settlement) {
        if (settlement instanceof Settlement.Republish republish
                && republish.target() == Settlement.Target.DEAD_LETTER) {
            return OutcomeCounters.DEAD_LETTER;
        }
        return switch (outcome.kind()) {
            case ACK -> OutcomeCounters.ACK;
            case RETRY -> OutcomeCounters.RETRY;
            case RETRY_AFTER -> OutcomeCounters.RETRY_AFTER;
            // A dead letter there is none to take: dropped.
            case DROP, DEAD_LETTER -> OutcomeCounters.DROP;
        };
    }

    /** What the log says becomes of a failed delivery, as this queue's type and cap make it. */
    String whatFollows(Settlement settlement, InboundDelivery delivery) {
        if (settlement instanceof Settlement.Republish republish) {
            if (republish.target() == Settlement.Target.PARK) {
                return parked(republish);
            }
            if (republish.target() == Settlement.Target.DEAD_LETTER) {
                return "it used its " + republish.retryCount() + " attempt(s): publishing it to dead-letter queue '"
                        + republish.queue() + "'";
            }
            return "retrying it as attempt " + republish.retryCount() + (republish.delay().isZero() ? ""
                    : " in " + DelayLabel.of(republish.delay().toMillis()) + " (where delay = " + subscription.delay
                            + " waits)");
        }
        if (settlement instanceof Settlement.Again again) {
            return "handling it again as attempt " + again.attempt() + (again.delay().isZero() ? ""
                    : " in " + DelayLabel.of(again.delay().toMillis())) + ", in place: its partition waits for it";
        }
        if (settlement instanceof Settlement.Reject reject) {
            if (!reject.requeue()) {
                return "rejecting it without requeue (the queue's dead-letter exchange keeps it if the queue has one)";
            }
            if (subscription.quorum()) {
                if (deadLettered(settlement, delivery)) {
                    return "it used its " + subscription.maxAttempts + " attempt(s): RabbitMQ dead-letters it to '"
                            + subscription.deadLetter + "' as it is rejected (the queue's x-delivery-limit)";
                }
                // With the server's delayed retry the server also holds it back before the next delivery.
                String requeueing = subscription.serverDelaysRetries()
                        ? "requeueing it: RabbitMQ holds it back (retryDelay, longer after each failure), counts its "
                                + "deliveries"
                        : "requeueing it: RabbitMQ counts its deliveries";
                return subscription.maxAttempts > 0
                        ? requeueing + " and dead-letters it to '" + subscription.deadLetter + "' after "
                                + subscription.maxAttempts
                        : requeueing + ", and the queue's delivery limit, if it has one, ends the loop";
            }
            return "requeueing it (a failure of its redelivery rejects it)";
        }
        return "acking it";
    }

    /** A dead-letter queue's reader could not handle a letter: where it goes, so that nobody looks for it in vain. */
    static String parked(Settlement.Republish park) {
        return "it is a dead letter, which must not be lost: parking it in queue '" + park.queue() + "' ("
                + io.quarkiverse.rabbitmq.subscriber.DeadLetters.PARKED_REASON_HEADER
                + " says why; DeadLetters.peek and the Dev UI show it) and reading on";
    }

    static String capitalized(String text) {
        return Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
