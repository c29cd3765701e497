package org.acme.refunds;

import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.ExchangeType;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.smallrye.mutiny.Uni;

/**
 * Payouts live in a quorum queue, which counts their deliveries itself: the cap becomes the queue's
 * {@code x-delivery-limit} (4) and dead-letter route, so RabbitMQ moves a payout to {@code payouts.dead} after its fifth
 * delivery, whether or not this service runs. A retry stays a plain {@code basic.reject} with requeue. Payouts are
 * published to the fanout exchange {@code payout-requests}, which gives {@link Audit} its own copy of each.
 */
public class Payouts {

    @Inject
    Processor processor;

    @Inject
    Ledger ledger;

    @Subscriber(value = "payouts", type = QueueType.QUORUM, maxAttempts = 5, deadLetter = "payouts.dead", bindings = @Binding(exchange = Audit.PAYOUT_REQUESTS, type = ExchangeType.FANOUT))
    Uni<Outcome> payout(Payout payout) {
        ledger.attempted(payout.id());
        return Uni.createFrom().item(() -> switch (processor.refund(payout.card())) {
            case OK -> {
                ledger.paid(payout);
                yield Outcome.ack();
            }
            case BUSY, UNAVAILABLE -> Outcome.retry();
            case DECLINED -> Outcome.drop();
        });
    }
}
