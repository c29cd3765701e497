package org.acme.docs.partitions;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.smallrye.mutiny.Uni;

/** Publishes ledger entries, each to the partition of its account. */
@ApplicationScoped
public class LedgerEntries {

    // tag::publish[]
    @Inject
    RabbitPublisher publisher;

    public Uni<Void> record(LedgerEntry entry) {
        // the partition of the entry's account; completes once the broker confirmed it
        return publisher.sendToPartitionConfirmed("ledger", entry.accountId(), entry);
    }
    // end::publish[]

    // tag::exchange[]
    public Uni<Void> recordThroughTheExchange(LedgerEntry entry) {
        // the key in the header the subscription's partitionKey names: the same partition as above
        return publisher.sendConfirmed(OutgoingMessage.to("ledger", "")
                .header("account-id", entry.accountId())
                .payload(entry));
    }
    // end::exchange[]
}
