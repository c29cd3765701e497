package org.acme.docs.testing;

import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

public class RefundReview {

    @Inject
    DeadRefunds deadRefunds;

    @Subscriber("refunds.dead")
    void review(Refund refund, Delivery delivery) {
        deadRefunds.add(refund, delivery.attempt());
    }
}
