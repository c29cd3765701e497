package org.acme.docs.operations;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.Subscriptions;

/** What an operator's endpoint or job calls: hold the payments back, let them go, replay their dead letters. */
@ApplicationScoped
public class PaymentsOperations {

    private static final Logger LOG = Logger.getLogger(PaymentsOperations.class);

    // tag::pause[]
    @Inject
    Subscriptions subscriptions;

    public void holdPayments() {
        subscriptions.pause("payments"); // in-flight deliveries settle; the rest waits in RabbitMQ
    }

    public void releasePayments() {
        subscriptions.resume("payments");
    }

    public boolean paymentsHeld() {
        return subscriptions.state("payments") == Subscriptions.State.PAUSED;
    }
    // end::pause[]

    // tag::replay[]
    @Inject
    DeadLetters deadLetters;

    /** Blocks until the broker answered: call it on a worker thread (a blocking endpoint, a scheduled job). */
    public int replayPayments() {
        for (DeadLetter letter : deadLetters.peek("payments.dead", 10)) {
            LOG.infof("Replaying message %s from %s (%s)", letter.messageId(), letter.sourceQueue(), letter.reason());
        }
        return deadLetters.replay("payments.dead", 100);
    }
    // end::replay[]
}
