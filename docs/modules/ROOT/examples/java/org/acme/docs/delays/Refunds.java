package org.acme.docs.delays;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Refunds {

    @Inject
    Processor processor;

    // tag::in-service[]
    @Subscriber(value = "refunds", maxAttempts = 5, deadLetter = "refunds.dead")
    Outcome process(Refund refund) {
        return switch (processor.call(refund.id())) {
            case BUSY -> Outcome.retryAfter(Duration.ofSeconds(30)); // held in the service for 30 s
            default -> Outcome.ack();
        };
    }
    // end::in-service[]
}
