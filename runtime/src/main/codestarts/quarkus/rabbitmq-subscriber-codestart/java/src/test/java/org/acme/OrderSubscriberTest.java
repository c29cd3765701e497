package org.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Runs on the in-process broker (%test.quarkus.rabbitmq-subscriber.broker=in-process): no RabbitMQ, no container.
 * The broker lives as long as the application, which all the tests of this class share: each test uses orders of
 * its own.
 */
@QuarkusTest
class OrderSubscriberTest {

    @Inject
    InProcessBroker broker;

    @Inject
    DeadOrders deadOrders;

    @Test
    void aGoodOrderIsAcknowledged() {
        broker.publish("orders", new Order("good-1", 2));
        broker.awaitIdle(); // returns once every delivery has been settled

        assertEquals(0, broker.queue("orders").depth());
        assertTrue(broker.messages("orders.dead").isEmpty());
        assertFalse(deadOrders.ids().contains("good-1"));
    }

    @Test
    void aBadOrderIsDeadLetteredAfterThreeDeliveries() {
        broker.publish("orders", new Order("bad-1", 0));
        broker.awaitIdle(); // three deliveries, the dead letter, and the dead-letter subscriber's

        assertEquals(0, broker.queue("orders").depth());
        assertTrue(deadOrders.ids().contains("bad-1"));
        assertEquals(0, broker.queue("orders.dead").depth()); // its subscriber took it
    }
}
