package org.acme.docs.retries;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Backoff;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Payments {

    @Inject
    Gateway gateway;

    // tag::backoff[]
    @Subscriber(value = "payments", maxAttempts = 6, deadLetter = "payments.dead",
            backoff = @Backoff(initial = "1s", multiplier = 2, max = "1m"))
    void pay(Payment payment) { // a failure comes back 1 s, 2 s, 4 s, 8 s, 16 s later, then the dead letter
        gateway.charge(payment);
    }
    // end::backoff[]
}
