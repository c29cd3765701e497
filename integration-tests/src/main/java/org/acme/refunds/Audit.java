package org.acme.refunds;

import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.ExchangeType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

/**
 * A second service on the same events: the audit trail gets its own queue, {@code audit.payouts}, bound to the
 * {@code payout-requests} fanout exchange beside {@code payouts}, so every payout request reaches both and neither
 * slows the other. In a real system this would be another application; here it is one more bean.
 */
public class Audit {

    /** The fanout exchange payout requests are published to. */
    public static final String PAYOUT_REQUESTS = "payout-requests";

    @Inject
    Ledger ledger;

    @Subscriber(value = "audit.payouts", bindings = @Binding(exchange = PAYOUT_REQUESTS, type = ExchangeType.FANOUT))
    void record(Payout payout) {
        ledger.audited(payout);
    }

    /**
     * Every refund issued, from the events the refunds handler publishes through its {@code Outputs} (the outbox). An
     * inbox too: an event the outbox's relay publishes again after a crash carries the same message-id, and is
     * recorded once.
     */
    @Subscriber(value = "audit.refunds-issued", inbox = true, bindings = @Binding(exchange = RefundIssued.EXCHANGE, keys = RefundIssued.KEY))
    void issued(RefundIssued issued) {
        IssuedAudit.record(issued);
        ledger.issued(issued);
    }
}
