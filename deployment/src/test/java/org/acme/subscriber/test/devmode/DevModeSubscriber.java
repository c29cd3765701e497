package org.acme.subscriber.test.devmode;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.event.Observes;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.vertx.ext.web.Router;

/** The application of the dev-mode test: a subscriber, and a route that shows what it received. */
public class DevModeSubscriber {

    static final List<String> RECEIVED = new CopyOnWriteArrayList<>();

    /** "later" asks to come back in an hour: the copy the service holds must survive a live reload. */
    @Subscriber("t.devmode")
    Outcome handle(String body, Delivery delivery) {
        RECEIVED.add("v1:" + body + ":" + delivery.attempt());
        return body.equals("later") && delivery.attempt() == 1 ? Outcome.retryAfter(Duration.ofHours(1))
                : Outcome.ack();
    }

    void routes(@Observes Router router) {
        router.get("/received").handler(rc -> rc.response().end(String.join(",", RECEIVED)));
    }
}
