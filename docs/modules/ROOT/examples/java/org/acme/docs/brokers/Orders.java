package org.acme.docs.brokers;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Orders {

    private final List<String> shipped = new CopyOnWriteArrayList<>();

    // tag::orders[]
    @Subscriber("orders") // <1>
    void order(String order, Outputs outputs) {
        outputs.send(OutgoingMessage.toQueue("shipments").payload(order)); // <2>
        outputs.send(OutgoingMessage.toQueue("invoices").payload(order).broker("billing")); // <3>
    }
    // end::orders[]

    @Subscriber("shipments")
    void ship(String order) {
        shipped.add(order);
    }

    public List<String> shipped() {
        return shipped;
    }
}
