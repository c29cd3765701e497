package org.acme.docs.batches;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Batch;
import io.quarkiverse.rabbitmq.subscriber.BatchOutcome;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Readings {

    @Inject
    ReadingStore store;

    // tag::batch[]
    @Subscriber(value = "readings", maxAttempts = 3, deadLetter = "readings.dead",
            batch = @Batch(size = 500, maxWait = "100ms"))
    BatchOutcome store(List<Reading> readings, List<Delivery> deliveries) {
        BatchOutcome outcome = BatchOutcome.ack();
        List<Reading> valid = new ArrayList<>();
        for (int i = 0; i < readings.size(); i++) {
            if (readings.get(i).sensor() == null) {
                outcome = outcome.deadLetter(i, "no sensor in " + deliveries.get(i).messageId()); // this item only
            } else {
                valid.add(readings.get(i));
            }
        }
        store.insert(valid); // one statement for the whole batch
        return outcome; // every other item acked
    }
    // end::batch[]
}
