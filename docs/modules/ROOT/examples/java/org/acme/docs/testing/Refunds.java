package org.acme.docs.testing;

import java.time.Duration;

import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

public class Refunds {

    @Inject
    Processor processor;

    // tag::subscriber[]
    @Subscriber(value = "refunds", maxAttempts = 5, deadLetter = "refunds.dead", delay = Delay.DLX_TTL)
    Outcome process(Refund refund, Delivery delivery) {
        return switch (processor.refund(refund.card())) {
            case OK -> Outcome.ack();
            case BUSY -> Outcome.retryAfter(Duration.ofSeconds(30));
            case UNAVAILABLE -> Outcome.retry();
            case DECLINED -> Outcome.drop();
        };
    }
    // end::subscriber[]
}
