package org.acme.docs.streams;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.smallrye.mutiny.Uni;

@ApplicationScoped
public class OrderedShipments {

    @Inject
    RabbitPublisher publisher;

    private final List<String> tracked = new CopyOnWriteArrayList<>();

    // tag::publish[]
    Uni<Void> publish(Shipment shipment) {
        // To the partition of the order's id: every event of one order reaches the same partition, in the order sent.
        return publisher.sendToPartitionConfirmed("shipments.ordered", shipment.orderId(), shipment);
    }
    // end::publish[]

    // tag::handler[]
    @Subscriber(value = "shipments.ordered", type = QueueType.STREAM, partitions = 4, // <1>
            partitionKey = "header:order-id", offset = "first")
    void track(Shipment shipment) {
        tracked.add(shipment.orderId() + ":" + shipment.status());
    }
    // end::handler[]

    List<String> tracked() {
        return List.copyOf(tracked);
    }
}
