package org.acme.docs.outcomes;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.MessageProperties;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Receipts {

    public record Stored(String receipt, String tenant, String messageId, String contentType, int attempt) {
    }

    private final List<Stored> stored = new CopyOnWriteArrayList<>();

    // tag::delivery[]
    @Subscriber("receipts")
    void store(Receipt receipt, Delivery delivery) {
        String tenant = (String) delivery.header("tenant"); // text headers are plain Strings
        MessageProperties properties = delivery.properties(); // the other properties, in plain Java types
        stored.add(new Stored(receipt.id(), tenant, delivery.messageId(), properties.contentType(),
                delivery.attempt())); // 1 on the first delivery
    }
    // end::delivery[]

    List<Stored> stored() {
        return List.copyOf(stored);
    }
}
