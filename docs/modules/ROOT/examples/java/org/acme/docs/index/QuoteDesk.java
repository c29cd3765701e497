package org.acme.docs.index;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.smallrye.mutiny.Uni;

@ApplicationScoped
public class QuoteDesk {

    @Inject
    RabbitPublisher publisher;

    // tag::request[]
    Uni<Quote> ask(String id) {
        return publisher.request("quotes", new QuoteRequest(id), Quote.class, Duration.ofSeconds(5));
    }
    // end::request[]

    // tag::reply[]
    @Subscriber("quotes")
    Uni<Void> quote(QuoteRequest request, Delivery delivery) {
        return publisher.send(OutgoingMessage.toQueue(delivery.replyTo())
                .correlationId(delivery.correlationId())
                .payload(new Quote(request.id(), 42)));
    }
    // end::reply[]
}
