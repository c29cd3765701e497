package org.acme.docs.outputs;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Orders {

    private final List<String> dispatched = new CopyOnWriteArrayList<>();
    private final List<String> emailed = new CopyOnWriteArrayList<>();

    // tag::outputs[]
    @Subscriber(value = "orders", maxAttempts = 5, deadLetter = "orders.dead")
    Outcome ship(Order order, Outputs outputs) {
        outputs.send("shipments", new Shipment(order.id())); // a queue, by name
        outputs.publish("events", "order.shipped", new Shipped(order.id())); // an exchange and a routing key
        return Outcome.ack();
    }

    @Subscriber("shipments") // declares the queue "shipments" and consumes it
    void dispatch(Shipment shipment) {
        dispatched.add(shipment.orderId());
    }

    @Subscriber(value = "order-emails", bindings = @Binding(exchange = "events", keys = "order.*"))
    void email(Shipped shipped) { // declares the exchange "events" and binds a queue to it
        emailed.add(shipped.orderId());
    }
    // end::outputs[]

    List<String> dispatched() {
        return List.copyOf(dispatched);
    }

    List<String> emailed() {
        return List.copyOf(emailed);
    }
}
