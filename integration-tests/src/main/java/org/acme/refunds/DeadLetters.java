package org.acme.refunds;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

/**
 * The two dead-letter queues are ordinary queues, read like any other. A refund the service dead-lettered carries the
 * retry-count header with the deliveries it went through (5 here); a payout the quorum queue dead-lettered carries
 * RabbitMQ's own {@code x-death} header instead. Both are logged and kept for a person to look at.
 */
public class DeadLetters {

    private static final Logger LOG = Logger.getLogger(DeadLetters.class);

    @Inject
    Ledger ledger;

    @Subscriber("refunds.dead")
    void review(Refund refund, Delivery delivery) {
        Object failure = delivery.header("x-exception-message");
        LOG.warnf("Refund %d gave up after %d deliveries%s", refund.id(), delivery.attempt(),
                failure == null ? "" : " (last failure: " + failure + ")");
        // The routing key the refund was first published with to the payments exchange, kept on every copy.
        ledger.deadRefund(refund, delivery.attempt(), delivery.routingKey());
    }

    @Subscriber("payouts.dead")
    void reviewPayout(Payout payout, Delivery delivery) {
        String reason = "unknown";
        if (delivery.header("x-death") instanceof List<?> deaths && !deaths.isEmpty()
                && deaths.get(0) instanceof Map<?, ?> death) {
            reason = String.valueOf(death.get("reason"));
        }
        LOG.warnf("Payout %d dead-lettered by RabbitMQ: %s", payout.id(), reason);
        ledger.deadPayout(payout, reason);
    }
}
