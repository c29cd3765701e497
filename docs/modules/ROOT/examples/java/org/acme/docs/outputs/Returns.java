package org.acme.docs.outputs;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Returns {

    @Subscriber(value = "returns", maxAttempts = 5, deadLetter = "returns.dead")
    Outcome receive(OrderReturn orderReturn, Outputs outputs) {
        // tag::optional[]
        outputs.send(OutgoingMessage.to("events", "return.received").payload(new Returned(orderReturn.orderId()))
                .mandatory(false)); // published without mandatory: no queue taking it is fine
        // end::optional[]
        return Outcome.ack();
    }
}
