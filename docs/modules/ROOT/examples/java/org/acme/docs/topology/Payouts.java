package org.acme.docs.topology;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Payouts {

    // tag::consumer-arguments[]
    @Subscriber(value = "payouts", type = QueueType.QUORUM, maxAttempts = 5, deadLetter = "payouts.dead",
            consumerArguments = { "x-priority=10", "x-consumer-timeout=600000" })
    void payout(Payout payout) {
        // ...
    }
    // end::consumer-arguments[]
}
