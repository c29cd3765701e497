package org.acme.docs.delays;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryDelay;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Payouts {

    @Inject
    Processor processor;

    // tag::retry-delay[]
    @Subscriber(value = "payouts", type = QueueType.QUORUM, maxAttempts = 5, deadLetter = "payouts.dead",
            retryDelay = @RetryDelay(min = "1s", max = "1m"))
    Outcome payout(Payout payout) {
        return switch (processor.call(payout.id())) {
            case OK -> Outcome.ack();
            case DECLINED -> Outcome.drop();
            default -> Outcome.retry(); // the server holds it back: 1 s after the first failure, 2 s after the second
        };
    }
    // end::retry-delay[]
}
