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
 * A processed refund announces itself: a {@link RefundIssued} event to the {@code refund-events} exchange, sent through
 * the handler's {@code Outputs}, so it leaves only with the attempt that succeeds, and the refund is acknowledged only
 * once RabbitMQ confirmed the event.
 */
public class Refunds {

    private static final Logger LOG = Logger.getLogger(Refunds.class);

    /** How long a busy processor asks its callers to wait. */
    static final Duration BACKOFF = Duration.ofSeconds(30);

    @Inject
    Processor processor;

    @Inject
    Ledger ledger;

    @Subscriber(value = "refunds", maxAttempts = 5, deadLetter = "refunds.dead", delay = Delay.DLX_TTL, bindings = @Binding(exchange = "payments", keys = "refund.*"))
    Outcome process(Refund refund, Delivery delivery, Outputs outputs) {
        ledger.attempted(refund);
        return switch (processor.refund(refund.card())) {
            case OK -> {
                ledger.processed(refund);
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
