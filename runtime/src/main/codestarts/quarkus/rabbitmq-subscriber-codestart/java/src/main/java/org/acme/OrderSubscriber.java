package org.acme;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class OrderSubscriber {

    private static final Logger LOG = Logger.getLogger(OrderSubscriber.class);

    @Inject
    DeadOrders deadOrders;

    /**
     * Consumes the orders queue; the extension declares it, and orders.dead, at startup. What the method returns
     * becomes of the message: ack() removes it, retry() delivers it again. A message is delivered at most 3 times
     * (maxAttempts): instead of a 4th delivery it goes to orders.dead (deadLetter).
     */
    @Subscriber(value = "orders", maxAttempts = 3, deadLetter = "orders.dead")
    Outcome process(Order order, Delivery delivery) {
        if (order.quantity() > 0) {
            LOG.infof("Order %s: %d item(s), accepted", order.id(), order.quantity());
            return Outcome.ack();
        }
        LOG.warnf("Order %s: quantity %d, delivery %d of 3, retried", order.id(), order.quantity(), delivery.attempt());
        return Outcome.retry();
    }

    /** Reads the dead-letter queue: each order that used up its 3 deliveries. Returning normally acks it. */
    @Subscriber("orders.dead")
    void dead(Order order, Delivery delivery) {
        LOG.errorf("Order %s dead-lettered after %d deliveries", order.id(), delivery.attempt());
        deadOrders.add(order.id());
    }
}
