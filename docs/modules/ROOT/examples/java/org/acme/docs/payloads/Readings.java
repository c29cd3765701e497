package org.acme.docs.payloads;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Readings {

    private final List<Reading> recorded = new CopyOnWriteArrayList<>();

    @Inject
    RabbitPublisher publisher;

    // tag::handler[]
    @Subscriber(value = "readings", maxAttempts = 3, deadLetter = "readings.dead")
    void record(Reading reading) { // text/csv through CsvReadings, JSON through the built-in codec
        recorded.add(reading);
    }
    // end::handler[]

    // tag::gzip[]
    void sendDay(List<Reading> day) {
        for (Reading reading : day) {
            // Compressed after CsvReadings wrote it; inflated before it reads it.
            publisher.sendConfirmedAndAwait(OutgoingMessage.toQueue("readings").payload(reading).contentEncoding("gzip"));
        }
    }
    // end::gzip[]

    List<Reading> recorded() {
        return List.copyOf(recorded);
    }
}
