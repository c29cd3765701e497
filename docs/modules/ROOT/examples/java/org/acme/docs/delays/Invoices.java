package org.acme.docs.delays;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Invoices {

    @Inject
    Processor processor;

    // tag::dlx-ttl[]
    @Subscriber(value = "invoices", maxAttempts = 5, deadLetter = "invoices.dead", delay = Delay.DLX_TTL)
    Outcome send(Invoice invoice) {
        return switch (processor.call(invoice.id())) {
            case BUSY -> Outcome.retryAfter(Duration.ofSeconds(30)); // waits in invoices.retry for 30 s
            default -> Outcome.ack();
        };
    }
    // end::dlx-ttl[]
}
