package org.acme.docs.topology;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.ExchangeType;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Refunds {

    private final List<String> routingKeys = new CopyOnWriteArrayList<>();

    // tag::bindings[]
    @Subscriber(value = "refunds", maxAttempts = 5, deadLetter = "refunds.dead",
            bindings = @Binding(exchange = "payments", type = ExchangeType.TOPIC, keys = { "refund.*", "chargeback.#" }),
            arguments = { "x-max-length=100000", "x-overflow=reject-publish" })
    Outcome process(Refund refund, Delivery delivery) {
        routingKeys.add(delivery.routingKey()); // refund.requested, chargeback.card.eu, ...
        return Outcome.ack();
    }
    // end::bindings[]

    List<String> routingKeys() {
        return List.copyOf(routingKeys);
    }
}
