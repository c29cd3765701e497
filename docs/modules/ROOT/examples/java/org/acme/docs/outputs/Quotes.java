package org.acme.docs.outputs;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Quotes {

    // tag::reply[]
    @Subscriber("quotes")
    Outcome quote(QuoteRequest request, Outputs outputs) {
        outputs.reply(new Quote(request.id(), 42)); // to the request's reply-to, with its correlation id
        return Outcome.ack();
    }
    // end::reply[]
}
