package org.acme.docs.retries;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class RefundReview {

    public record Review(long refund, int deliveries) {
    }

    private final List<Review> reviews = new CopyOnWriteArrayList<>();

    // tag::review[]
    @Subscriber("refunds.dead") // a dead-letter queue is read like any other
    void review(Refund refund, Delivery delivery) {
        int deliveries = delivery.attempt(); // 5 for a refund the runtime dead-lettered
        reviews.add(new Review(refund.id(), deliveries));
    }
    // end::review[]

    List<Review> reviews() {
        return List.copyOf(reviews);
    }
}
