package org.acme.subscriber.test.brokers;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Broker;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;

/**
 * What an application on two brokers sees, whichever serves them (the in-process broker, or two virtual hosts of
 * RabbitMQ): each subscription consumes on its own broker, each publisher publishes on its own, an output leaves on its
 * subscription's broker unless its message names another, and no message crosses from one broker to the other.
 */
abstract class BrokerScenarios {

    static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    BillingHandlers handlers;

    @Inject
    RabbitPublisher orders;

    @Inject
    @Broker(BillingHandlers.BILLING)
    RabbitPublisher billing;

    /** Waits until every delivery that can happen now has happened (the in-process broker's idleness), if it can. */
    abstract void settle();

    @Test
    void anOutputLeavesOnItsSubscriptionsBrokerUnlessItNamesAnother() {
        orders.sendConfirmed(OutgoingMessage.toQueue(BillingHandlers.ORDERS).payload("o-1")).await().atMost(WAIT);
        settle();
        await().atMost(WAIT).until(() -> handlers.invoices.contains("invoice for o-1")
                && handlers.audit.contains("o-1"));

        billing.sendConfirmed(OutgoingMessage.toQueue(BillingHandlers.REFUNDS).payload("r-1")).await().atMost(WAIT);
        settle();
        await().atMost(WAIT).until(() -> handlers.billingAudit.contains("refunded r-1"));
    }

    @Test
    void eachPublisherPublishesOnItsOwnBroker() {
        billing.sendConfirmed(OutgoingMessage.toQueue(BillingHandlers.INVOICES).payload("direct")).await().atMost(WAIT);
        // A message that names the broker goes there, whichever publisher sends it.
        orders.sendConfirmed(OutgoingMessage.toQueue(BillingHandlers.INVOICES).payload("named").broker(
                BillingHandlers.BILLING)).await().atMost(WAIT);
        settle();
        await().atMost(WAIT).until(() -> handlers.invoices.containsAll(List.of("direct", "named")));

        // The default broker has no queue of the billing broker's: nothing crosses.
        RuntimeException returned = assertThrows(RuntimeException.class, () -> orders.sendConfirmed(
                OutgoingMessage.toQueue(BillingHandlers.INVOICES).payload("lost")).await().atMost(WAIT));
        assertTrue(String.valueOf(returned.getMessage()).contains("unroutable"), returned.toString());
        RuntimeException alsoReturned = assertThrows(RuntimeException.class, () -> billing.sendConfirmed(
                OutgoingMessage.toQueue(BillingHandlers.ORDERS).payload("lost")).await().atMost(WAIT));
        assertTrue(String.valueOf(alsoReturned.getMessage()).contains("unroutable"), alsoReturned.toString());
        settle();
        assertEquals(0, handlers.invoices.stream().filter("lost"::equals).count());
    }

    @Test
    void aBrokerThatIsNotConfiguredIsNamedWhereAMessageNamesIt() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> orders.sendConfirmed(
                OutgoingMessage.toQueue(BillingHandlers.INVOICES).payload("x").broker("biling")).await().atMost(WAIT));
        assertTrue(unknown.getMessage().contains("Broker 'biling' is not configured"), unknown.getMessage());
        assertTrue(unknown.getMessage().contains("[billing]"), unknown.getMessage());
    }
}
