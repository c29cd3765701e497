package org.acme.docs.streams;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Shipments {

    private final List<String> tracked = new CopyOnWriteArrayList<>();
    private final AtomicInteger attempts = new AtomicInteger();
    private volatile boolean trackerDown;

    // tag::handler[]
    @Subscriber(value = "shipments", type = QueueType.STREAM, offset = "first", maxAttempts = 3, deadLetter = "shipments.dead")
    Outcome track(Shipment shipment, Delivery delivery) {
        if (shipment.status().isBlank()) {
            return Outcome.deadLetter("no status"); // <1>
        }
        if (!trackerAvailable()) {
            return Outcome.retryAfter(Duration.ofSeconds(1)); // <2>
        }
        tracked.add(shipment.orderId() + ":" + shipment.status() + "@" + delivery.offset()); // <3>
        return Outcome.ack();
    }
    // end::handler[]

    /** The tracking service, down in the test at first: each call counts as an attempt. */
    boolean trackerAvailable() {
        attempts.incrementAndGet();
        return !trackerDown;
    }

    List<String> tracked() {
        return List.copyOf(tracked);
    }

    int attempts() {
        return attempts.get();
    }

    void trackerDown(boolean down) {
        trackerDown = down;
    }
}
