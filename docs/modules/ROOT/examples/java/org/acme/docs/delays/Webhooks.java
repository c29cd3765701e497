package org.acme.docs.delays;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Webhooks {

    @Inject
    Processor processor;

    // tag::per-delay[]
    @Subscriber(value = "webhooks", maxAttempts = 5, deadLetter = "webhooks.dead", delay = Delay.DLX_TTL_PER_DELAY,
            delays = { "1s", "30s", "5m" })
    Outcome call(Webhook webhook) {
        return switch (processor.call(webhook.id())) {
            case OK -> Outcome.ack();
            case BUSY -> Outcome.retryAfter(Duration.ofSeconds(30)); // waits in webhooks.retry.30s
            case UNAVAILABLE -> Outcome.retryAfter(Duration.ofMinutes(5)); // waits in webhooks.retry.5m
            case DECLINED -> Outcome.drop();
        };
    }
    // end::per-delay[]
}
