package org.acme.docs.exactlyonce;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Orders {

    @Inject
    ShopDatabase database;

    // tag::inbox[]
    @Subscriber(value = "orders", maxAttempts = 5, deadLetter = "orders.dead", delay = Delay.DLX_TTL, inbox = true)
    Outcome place(Order order, Outputs outputs) {
        database.insertOrder(order);                                     // joins the inbox's transaction
        outputs.publish("shop", "order.placed", new Placed(order.id()));  // a row of the outbox, same transaction
        return Outcome.ack();
    }
    // end::inbox[]
}
