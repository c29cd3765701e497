package org.acme.docs.topology;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Orders {

    private final List<String> placed = new CopyOnWriteArrayList<>();

    // tag::names[]
    @Subscriber(value = "${orders.queue}", maxAttempts = 3, deadLetter = "${orders.queue}.dead",
            bindings = @Binding(exchange = "${orders.exchange:shop}", keys = "${orders.key:order.*}"))
    void place(Order order) {
        placed.add(order.id());
    }
    // end::names[]

    List<String> placed() {
        return List.copyOf(placed);
    }
}
