package org.acme.docs.retries;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Orders {

    @Inject
    Warehouse warehouse;

    // tag::orders[]
    @Subscriber(value = "orders", maxAttempts = 3, deadLetter = "orders.dead") // application.properties raises the cap to 8
    void place(Order order) {
        warehouse.reserve(order);
    }
    // end::orders[]
}
