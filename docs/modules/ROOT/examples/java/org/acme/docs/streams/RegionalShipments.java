package org.acme.docs.streams;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.smallrye.mutiny.Uni;

@ApplicationScoped
public class RegionalShipments {

    @Inject
    RabbitPublisher publisher;

    private final List<String> european = new CopyOnWriteArrayList<>();

    // tag::publish[]
    Uni<Void> publish(Shipment shipment, String region) {
        return publisher.sendConfirmed(OutgoingMessage.toQueue("shipments.regional").payload(shipment)
                .filterValue(region));
    }
    // end::publish[]

    // tag::filter[]
    @Subscriber(value = "shipments.regional", type = QueueType.STREAM, offset = "first", filter = "eu")
    void european(Shipment shipment) {
        european.add(shipment.orderId());
    }
    // end::filter[]

    List<String> european() {
        return List.copyOf(european);
    }
}
