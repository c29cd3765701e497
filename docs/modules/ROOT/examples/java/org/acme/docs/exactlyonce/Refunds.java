package org.acme.docs.exactlyonce;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;

/** Issues refunds from a REST endpoint, say; with quarkus.rabbitmq-subscriber.outbox.enabled=true. */
@ApplicationScoped
public class Refunds {

    @Inject
    ShopDatabase database;

    @Inject
    RabbitPublisher publisher;

    // tag::outbox[]
    @Transactional
    public void refund(Refund refund) {
        database.insertRefund(refund);                                   // the application's write
        publisher.sendConfirmed(OutgoingMessage.to("payments", "refund.issued")
                .payload(new RefundIssued(refund.id())))
                .await().indefinitely();                                 // a row of the outbox, in this transaction
    }
    // end::outbox[]
}
