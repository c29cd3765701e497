package org.acme.docs.retries;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.smallrye.mutiny.Uni;

@ApplicationScoped
public class Refunds {

    @Inject
    Processor processor;

    // tag::caps[]
    @Subscriber(value = "refunds", maxAttempts = 5, deadLetter = "refunds.dead")
    Outcome process(Refund refund) { // classic queue: the runtime counts
        return processor.refund(refund.card()) ? Outcome.ack() : Outcome.retry();
    }

    @Subscriber(value = "payouts", type = QueueType.QUORUM, maxAttempts = 5, deadLetter = "payouts.dead")
    Uni<Outcome> payout(Payout payout) { // quorum queue: the server counts
        return processor.payout(payout).map(paid -> paid ? Outcome.ack() : Outcome.retry());
    }
    // end::caps[]
}
