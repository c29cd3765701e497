package org.acme.subscriber.test.backoff;

import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.Test;

/**
 * The back-off scenarios, written once: a failing payment under a back-off, wherever its subscription's delay makes
 * it wait. Each subclass runs them on one broker and says how it checks the waits.
 */
abstract class BackoffScenarios extends BrokerScenarios {

    @Inject
    BackoffHandlers handlers;

    /** Publishes a payment that always fails to the queue and checks its waits, its cap and its dead letter. */
    abstract void backsOff(String queue) throws Exception;

    @Test
    void inTheService() throws Exception {
        backsOff(BackoffHandlers.IN_SERVICE);
    }

    @Test
    void inAWaitingQueue() throws Exception {
        backsOff(BackoffHandlers.WAITING);
    }

    @Test
    void onAQuorumQueue() throws Exception {
        backsOff(BackoffHandlers.QUORUM);
    }
}
