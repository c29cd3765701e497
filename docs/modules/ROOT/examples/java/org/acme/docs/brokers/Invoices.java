package org.acme.docs.brokers;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.Broker;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

@ApplicationScoped
public class Invoices {

    private final List<String> invoiced = new CopyOnWriteArrayList<>();

    // tag::publisher[]
    @Inject
    @Broker("billing")
    RabbitPublisher billing;

    public void credit(String order) {
        billing.sendConfirmedAndAwait(OutgoingMessage.toQueue("invoices").payload("credit " + order));
    }
    // end::publisher[]

    // tag::invoices[]
    @Subscriber(value = "invoices", broker = "billing")
    void invoice(String order) {
        invoiced.add(order);
    }
    // end::invoices[]

    public List<String> invoiced() {
        return invoiced;
    }
}
