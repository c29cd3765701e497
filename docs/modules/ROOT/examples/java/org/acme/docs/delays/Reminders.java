package org.acme.docs.delays;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Reminders {

    @Inject
    Processor processor;

    // tag::plugin[]
    @Subscriber(value = "reminders", maxAttempts = 5, deadLetter = "reminders.dead", delay = Delay.PLUGIN)
    Outcome remind(Reminder reminder) {
        return switch (processor.call(reminder.id())) {
            case BUSY -> Outcome.retryAfter(Duration.ofSeconds(30)); // waits in the delayed-message exchange
            default -> Outcome.ack();
        };
    }
    // end::plugin[]
}
