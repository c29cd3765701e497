package org.acme.docs.guarantees;

import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Refunds {

    private static final Logger LOG = Logger.getLogger(Refunds.class);

    private final AtomicInteger handled = new AtomicInteger();

    @Inject
    RefundLedger ledger;

    // tag::idempotent[]
    @Subscriber(value = "refunds", maxAttempts = 5, deadLetter = "refunds.dead")
    void refund(Refund refund, Delivery delivery) {
        handled.incrementAndGet();
        // The effect is keyed on the refund's id: handling the same refund again changes nothing.
        if (!ledger.recordOnce(refund)) {
            LOG.debugf("Refund %s is recorded already (redelivered: %s)", refund.id(), delivery.redelivered());
        }
    }
    // end::idempotent[]

    /** How many deliveries the handler got. */
    public int handled() {
        return handled.get();
    }
}
