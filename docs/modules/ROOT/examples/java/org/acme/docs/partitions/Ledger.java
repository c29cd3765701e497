package org.acme.docs.partitions;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Backoff;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Ledger {

    @Inject
    Accounts accounts;

    // tag::handler[]
    @Subscriber(value = "ledger", partitions = 8, partitionKey = "header:account-id",
            type = QueueType.QUORUM, maxAttempts = 5, deadLetter = "ledger.dead",
            backoff = @Backoff(initial = "1s", max = "30s"))
    Outcome post(LedgerEntry entry) {
        accounts.post(entry); // a failure waits 1 s, 2 s, 4 s ... in place: the account's later entries wait behind it
        return Outcome.ack();
    }
    // end::handler[]
}
