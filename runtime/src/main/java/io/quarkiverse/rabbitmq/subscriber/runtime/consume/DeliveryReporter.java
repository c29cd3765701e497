package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.OutcomeCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * Tells what became of a delivery, once, when its settlement is decided: the log line (a failure at WARN while the
 * message gets another delivery, at ERROR with its stack trace when it is given up, so one poison message is one ERROR
 * and one stack trace; INFO when a retry used the last attempt), the subscription's outcome counter (the Dev UI) and
 * the delivery's observation (metrics and tracing).
 */
public final class DeliveryReporter {

    /** The category log configurations and the docs name for what becomes of deliveries. */
    private static final Logger LOG = Logger.getLogger(DeliveryReporter.class);

    private final String method;
    private final SubscriptionSpec subscription;
    private final DeliveryFate fate;
    private final OutcomeCounters.Counts outcomes;
    /**
     * A batch's failure while its items are reported ({@link #batchFailing}): the items it retries say so at DEBUG, and
     * the batch says it once ({@link #batchFailed}). Event loop only.
     */
    private Throwable batchFailure;
    private int quietRetries;

    public DeliveryReporter(String method, SubscriptionSpec subscription, OutcomeCounters outcomes) {
        this.method = method;
        this.subscription = subscription;
        this.fate = new DeliveryFate(subscription);
        this.outcomes = outcomes.of(subscription.queue);
    }

    void undecodable(InboundDelivery delivery, String expectedType, UndecodablePayloadException e,
            Settlement settlement) {
        // The decoder's reason never quotes the body (DecodeFailure); the parser's own message, which may, is DEBUG.
        if (LOG.isDebugEnabled() && e.getCause() != null) {
            LOG.debugf("Decoding %s on queue '%s' failed: %s", delivery.describe(), delivery.queue(),
                    io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText.of(String.valueOf(e.getCause()
                            .getMessage())));
        }
        LOG.errorf("Cannot decode %s on queue '%s' as %s: %s. %s", delivery.describe(), delivery.queue(), expectedType,
                io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText.of(e.getMessage()),
                settlement instanceof Settlement.Republish republish
                        ? republish.target() == Settlement.Target.PARK
                                ? DeliveryFate.capitalized(DeliveryFate.parked(republish))
                                : "Publishing it to dead-letter queue '" + republish.queue() + "'"
                        : "Rejecting it without requeue (the queue's dead-letter exchange keeps it if the queue has one)");
        count(delivery, parked(settlement) ? OutcomeCounters.PARKED
                : fate.deadLettered(settlement, delivery) ? OutcomeCounters.DEAD_LETTER : OutcomeCounters.UNDECODABLE,
                e.getClass().getName());
    }

    /** A failed verdict, decided: its cause is null where the failure is no exception (a null outcome, a wrong type). */
    void failed(InboundDelivery delivery, Verdict failed) {
        Throwable cause = failed.cause();
        Settlement settlement = failed.settlement();
        boolean deadLettered = fate.deadLettered(settlement, delivery);
        // A quorum queue's last requeue is the server's dead letter: given up, so an ERROR with the stack trace.
        boolean retried = settlement == Settlement.REQUEUE && !deadLettered
                || (settlement instanceof Settlement.Republish republish
                        && republish.target() == Settlement.Target.COPY);
        if (retried && cause != null && cause == batchFailure) {
            quietRetries++;
            LOG.debugf("%s failed for %s on queue '%s' with its batch (%s); %s", method, delivery.describe(),
                    delivery.queue(), summary(failed), fate.whatFollows(settlement, delivery));
        } else if (retried) {
            LOG.warnf("%s failed for %s on queue '%s' (%s); %s", method, delivery.describe(), delivery.queue(),
                    summary(failed), fate.whatFollows(settlement, delivery));
            LOG.debugf(cause, "The failure of %s for %s on queue '%s'", method, delivery.describe(), delivery.queue());
        } else {
            LOG.errorf(cause, "%s failed for %s on queue '%s'%s; %s%s", method, delivery.describe(), delivery.queue(),
                    cause == null ? ": " + failed.failure().message() : "",
                    failed.deadLetterNow() ? "a failure it dead-letters at once (deadLetterOn): " : "",
                    fate.whatFollows(settlement, delivery));
        }
        count(delivery, parked(settlement) ? OutcomeCounters.PARKED
                : deadLettered ? OutcomeCounters.DEAD_LETTER : OutcomeCounters.FAILURE, failed.failure().type());
    }

    void handled(InboundDelivery delivery, Outcome handled, Settlement settlement) {
        boolean deadLettered = fate.deadLettered(settlement, delivery);
        if (parked(settlement)) {
            LOG.errorf("%s returned %s for %s on queue '%s' at its last attempt; %s", method, handled.kind(),
                    delivery.describe(), delivery.queue(), DeliveryFate.parked((Settlement.Republish) settlement));
            count(delivery, OutcomeCounters.PARKED, null);
            return;
        }
        if (handled.kind() == Outcome.Kind.DEAD_LETTER) {
            if (deadLettered) {
                LOG.infof("%s dead-lettered %s on queue '%s' (%s): %s", method, delivery.describe(), delivery.queue(),
                        LogText.of(handled.reason()), settlement instanceof Settlement.Republish republish
                                ? "publishing it to dead-letter queue '" + republish.queue() + "'"
                                : "RabbitMQ moves it to '" + subscription.deadLetter + "'");
            } else {
                LOG.errorf("%s dead-lettered %s on queue '%s' (%s), but the queue has no dead-letter queue: dropping "
                        + "it. Give the subscription a deadLetter queue to keep such messages", method,
                        delivery.describe(), delivery.queue(), LogText.of(handled.reason()));
            }
        } else if (deadLettered && handled.kind() != Outcome.Kind.DROP) {
            // A retry or retryAfter that used the last attempt: the message is given up. The handler chose it (no
            // failure), so INFO, one line.
            LOG.infof("%s returned %s for %s on queue '%s' at its last attempt: %s", method, handled.kind(),
                    delivery.describe(), delivery.queue(), settlement instanceof Settlement.Republish republish
                            ? "publishing it to dead-letter queue '" + republish.queue() + "'"
                            : "RabbitMQ dead-letters it to '" + subscription.deadLetter + "' at the queue's limit");
        }
        count(delivery, deadLettered ? OutcomeCounters.DEAD_LETTER : DeliveryFate.label(handled, settlement), null);
    }

    /**
     * The items of a batch are about to be reported, each failed with the batch's {@code failure} (a throw, a failed
     * {@code Uni}, an output that reached no queue): the ones it retries are said once, by {@link #batchFailed}; those
     * it gives up keep their own ERROR each (a message leaves for good).
     */
    public void batchFailing(Throwable failure) {
        batchFailure = failure;
        quietRetries = 0;
    }

    /** The batch's items are reported: one WARN for the ones its failure retried. */
    public void batchFailed(String batch, String queue) {
        Throwable failure = batchFailure;
        batchFailure = null;
        if (quietRetries > 0) {
            LOG.warnf("%s failed for %s on queue '%s' (%s: %s); %d of its message(s) get another attempt (each one's "
                    + "line at DEBUG)", method, batch, queue, failure.getClass().getName(),
                    LogText.of(String.valueOf(failure.getMessage())), quietRetries);
            LOG.debugf(failure, "The failure of %s for %s on queue '%s'", method, batch, queue);
        }
    }

    private static boolean parked(Settlement settlement) {
        return settlement instanceof Settlement.Republish republish && republish.target() == Settlement.Target.PARK;
    }

    static String summary(Verdict failed) {
        return failed.failure().type() + ": " + failed.failure().message();
    }

    /** A message the inbox had handled already: acked without calling the handler. */
    void duplicate(InboundDelivery delivery) {
        LOG.debugf("%s is in the inbox of queue '%s' already: its effects are in; acked without calling %s",
                delivery.describe(), delivery.queue(), method);
        count(delivery, OutcomeCounters.DUPLICATE, null);
    }

    private void count(InboundDelivery delivery, String outcome, String errorType) {
        outcomes.count(outcome);
        delivery.observation().settled(outcome, errorType);
    }
}
