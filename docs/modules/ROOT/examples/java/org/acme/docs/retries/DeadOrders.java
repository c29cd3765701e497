package org.acme.docs.retries;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.DeadLetters;

/** An operator's tools, as a scheduled job or a blocking REST endpoint would call them. */
@ApplicationScoped
public class DeadOrders {

    // tag::replay[]
    @Inject
    DeadLetters deadLetters;

    List<DeadLetter> waiting() {
        return deadLetters.peek("orders.dead", 10); // what waits, head first; nothing is taken
    }

    int replay() {
        return deadLetters.replay("orders.dead", 100); // back to the queue each came from
    }
    // end::replay[]
}
