package org.acme.docs.operations;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Payments {

    @Inject
    PaymentGateway gateway;

    // tag::handler[]
    @Subscriber(value = "payments", maxAttempts = 5, deadLetter = "payments.dead",
            deadLetterOn = DeclinedException.class)
    Outcome pay(Payment payment) {
        if (gateway.closed(payment.account())) {
            return Outcome.deadLetter("account closed"); // no attempt can succeed: to payments.dead now
        }
        gateway.charge(payment); // a DeclinedException goes to payments.dead at once, other failures are retried
        return Outcome.ack();
    }
    // end::handler[]
}
