package org.acme.subscriber.test.brokers;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

/**
 * An application on two brokers: orders on the default one, billing on the broker named {@code billing}. An order's
 * handler sends the invoice to the billing broker (its message names it) and an audit line to its own broker (its
 * message names none); a refund's handler, on billing, sends its audit line to its own broker, billing.
 */
@Singleton
public class BillingHandlers {

    public static final String BILLING = "billing";
    /** On the default broker. */
    public static final String ORDERS = "nb.orders";
    public static final String AUDIT = "nb.audit";
    /** On the billing broker. */
    public static final String INVOICES = "nb.invoices";
    public static final String REFUNDS = "nb.refunds";
    public static final String BILLING_AUDIT = "nb.billing-audit";
    public static final List<String> QUEUES = List.of(ORDERS, AUDIT, INVOICES, REFUNDS, BILLING_AUDIT);

    public final List<String> invoices = new CopyOnWriteArrayList<>();
    public final List<String> audit = new CopyOnWriteArrayList<>();
    public final List<String> billingAudit = new CopyOnWriteArrayList<>();

    @Subscriber(ORDERS)
    void order(String order, Outputs outputs) {
        outputs.send(OutgoingMessage.toQueue(INVOICES).payload("invoice for " + order).broker(BILLING));
        outputs.send(OutgoingMessage.toQueue(AUDIT).payload(order));
    }

    @Subscriber(AUDIT)
    void audit(String line) {
        audit.add(line);
    }

    @Subscriber(value = INVOICES, broker = BILLING)
    void invoice(String invoice) {
        invoices.add(invoice);
    }

    @Subscriber(value = REFUNDS, broker = BILLING)
    void refund(String refund, Outputs outputs) {
        outputs.send(OutgoingMessage.toQueue(BILLING_AUDIT).payload("refunded " + refund));
    }

    @Subscriber(value = BILLING_AUDIT, broker = BILLING)
    void billingAudit(String line) {
        billingAudit.add(line);
    }
}
