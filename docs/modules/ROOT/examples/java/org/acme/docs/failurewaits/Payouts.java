package org.acme.docs.failurewaits;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Backoff;
import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryDelay;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Payouts {

    @Inject
    Bank bank;

    // tag::waiting-queues[]
    @Subscriber(value = "payouts", maxAttempts = 4, deadLetter = "payouts.dead",
            delay = Delay.DLX_TTL_PER_DELAY, delays = { "1s", "2s", "4s" },
            backoff = @Backoff(initial = "1s", multiplier = 2, max = "4s"))
    void transfer(Payout payout) {
        bank.transfer(payout); // a failure waits 1 s, then 2 s, then 4 s, in payouts.retry.1s, .2s and .4s
    }
    // end::waiting-queues[]

    // tag::server[]
    @Subscriber(value = "settlements", type = QueueType.QUORUM, maxAttempts = 4, deadLetter = "settlements.dead",
            retryDelay = @RetryDelay(min = "1s", max = "4s"))
    void settle(Payout payout) {
        bank.settle(payout); // a failure waits 1 s, then 2 s, then 3 s, in the quorum queue itself (RabbitMQ 4.3)
    }
    // end::server[]
}
