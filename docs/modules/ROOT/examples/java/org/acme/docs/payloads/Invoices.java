package org.acme.docs.payloads;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.docs.payloads.proto.Invoice;

import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Invoices {

    private final List<Invoice> booked = new CopyOnWriteArrayList<>();

    @Inject
    RabbitPublisher publisher;

    // tag::handler[]
    @Subscriber(value = "invoices", maxAttempts = 5, deadLetter = "invoices.dead")
    void book(Invoice invoice) { // a class protoc generated: read from Protobuf
        booked.add(invoice);
    }
    // end::handler[]

    // tag::send[]
    void issue(String id, long cents) {
        Invoice invoice = Invoice.newBuilder().setId(id).setCents(cents).build();
        publisher.sendConfirmedAndAwait("invoices", invoice); // application/x-protobuf, with x-protobuf-type: shop.Invoice
    }
    // end::send[]

    List<Invoice> booked() {
        return List.copyOf(booked);
    }
}
