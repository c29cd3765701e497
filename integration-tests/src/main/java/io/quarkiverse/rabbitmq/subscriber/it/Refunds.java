package io.quarkiverse.rabbitmq.subscriber.it;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

/** The refunds service: each refund on the {@code refunds} queue goes to the card processor once it can. */
public class Refunds {

    private static final Logger LOG = Logger.getLogger(Refunds.class);

    @Inject
    Processor processor;

    @Inject
    Ledger ledger;

    @Subscriber("refunds")
    Outcome process(Refund refund, Delivery delivery) {
        ledger.attempted(refund);
        return switch (processor.refund(refund.card())) {
            case OK -> {
                ledger.processed(refund);
                yield Outcome.ack();
            }
            // Until delayed retries land, a busy processor is asked again like an unavailable one.
            case BUSY, UNAVAILABLE -> Outcome.retry();
            case DECLINED -> {
                LOG.warnf("Refund %d: card declined, refund dropped", refund.id());
                ledger.declined(refund);
                yield Outcome.drop();
            }
        };
    }
}
