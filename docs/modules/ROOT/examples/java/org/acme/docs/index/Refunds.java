package org.acme.docs.index;

import java.time.Duration;

import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

public class Refunds {

    @Inject
    Processor processor;

    @Subscriber("refunds") // <1>
    Outcome process(Refund refund, Delivery delivery) { // <2>
        return switch (processor.refund(refund.card())) {
            case OK -> Outcome.ack(); // <3>
            case BUSY -> Outcome.retryAfter(Duration.ofSeconds(30));
            case UNAVAILABLE -> Outcome.retry();
            case DECLINED -> Outcome.drop();
        };
    }
}
