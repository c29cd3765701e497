package org.acme.refunds;

import java.time.Duration;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

/**
 * The refunds service: refunds are published to the {@code payments} topic exchange ({@code refund.requested}, and any
 * other {@code refund.*} key reaches this queue too); each refund on the {@code refunds} queue goes to the card
 * processor once it can. Retries and dead letters keep the routing key the refund was published with. A refund gets
 * at most five deliveries; the runtime counts them (a classic queue counts nothing) and moves the fifth failure to
 * {@code refunds.dead}, where {@link DeadLetters} reads it. A refund the processor is too busy for waits 30 seconds in
 * RabbitMQ's waiting queue {@code refunds.retry} ({@code DLX_TTL}), so a restart of the service loses none of them.
 * The subscriber has an inbox: it runs in a database transaction that first records the message's id, so a refund
 * delivered twice (a cut, a crash after the commit, a publisher that retried) is recorded once ({@link RefundRecord})
 * and the second delivery is acked without calling it. A processed refund announces itself: a {@link RefundIssued}
 * event to the {@code refund-events} exchange, sent through the handler's {@code Outputs}, which the inbox writes to
 * the outbox table in the same transaction; it is published after the commit, before the refund is acknowledged (a
 * relay sends it if the service dies in between), and only with the attempt that succeeds.
 */
public class Refunds {

    private static final Logger LOG = Logger.getLogger(Refunds.class);

    /** How long a busy processor asks its callers to wait. */
    static final Duration BACKOFF = Duration.ofSeconds(30);

    @Inject
    Processor processor;

    @Inject
    Ledger ledger;

    @Subscriber(value = "refunds", inbox = true, maxAttempts = 5, deadLetter = "refunds.dead", delay = Delay.DLX_TTL, bindings = @Binding(exchange = "payments", keys = "refund.*"))
    Outcome process(Refund refund, Delivery delivery, Outputs outputs) {
        ledger.attempted(refund);
        return switch (processor.refund(refund.card())) {
            case OK -> {
                RefundRecord.record(refund);
                outputs.publish(RefundIssued.EXCHANGE, RefundIssued.KEY,
                        new RefundIssued(refund.id(), refund.card(), refund.amountCents()));
                yield Outcome.ack();
            }
            // Past its rate limit: a call right now would be refused again.
            case BUSY -> Outcome.retryAfter(BACKOFF);
            // No answer: try again at once, up to the cap.
            case UNAVAILABLE -> Outcome.retry();
            case DECLINED -> {
                LOG.warnf("Refund %d: card declined, refund dropped", refund.id());
                ledger.declined(refund);
                yield Outcome.drop();
            }
        };
    }
}
