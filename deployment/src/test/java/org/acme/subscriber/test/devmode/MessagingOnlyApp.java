package org.acme.subscriber.test.devmode;

import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

/** The application of the reload-on-message test: it only consumes messages, and answers on another queue. */
public class MessagingOnlyApp {

    @Inject
    RabbitPublisher publisher;

    @Subscriber("t.reload.in")
    void handle(String body) {
        publisher.sendConfirmedAndAwait("t.reload.out", "v0:" + body);
    }

    @Subscriber("t.reload.extra")
    void extra(String body) {
    }
}
