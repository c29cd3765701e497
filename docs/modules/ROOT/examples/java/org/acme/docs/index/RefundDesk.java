package org.acme.docs.index;

import java.time.Duration;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.smallrye.mutiny.Uni;

/** Publishes refunds from a plain bean method: a REST resource, a scheduled job or a handler would do the same. */
@ApplicationScoped
public class RefundDesk {

    // tag::publish[]
    @Inject
    RabbitPublisher publisher;

    Uni<Void> submit(Refund refund) {
        return publisher.send("refunds", refund); // fire and forget
    }

    Uni<Void> submitConfirmed(Refund refund) {
        return publisher.sendConfirmed("refunds", refund, Map.of("tenant", "acme")); // confirmed, with headers
    }

    void audit(Refund refund) { // blocks until the broker confirmed: on a worker thread, never an event loop
        publisher.publishConfirmedAndAwait("audit", "refunds.eu", refund, Map.of("tenant", "acme"));
    }
    // end::publish[]

    void submitWhole(Refund refund, String orderId) {
        // tag::whole[]
        publisher.sendConfirmedAndAwait(OutgoingMessage.to("payments", "refund.eu") // or OutgoingMessage.toQueue("refunds")
                .payload(refund)
                .header("tenant", "acme")
                .messageId("refund-" + refund.id()) // a random UUID when not set
                .correlationId(orderId)
                .replyTo("refund-results")
                .expiration(Duration.ofMinutes(5)) // the AMQP expiration, in milliseconds
                .priority(5) // 0..255
                .persistent(false)); // delivery mode 1; persistent (2) by default
        // end::whole[]
    }
}
