package org.acme.subscriber.test.devmode;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.event.Observes;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.vertx.ext.web.Router;

/** The application of the dev-mode test: a subscriber, and a route that shows what it received. */
public class DevModeSubscriber {

    static final List<String> RECEIVED = new CopyOnWriteArrayList<>();

    @Subscriber("t.devmode")
    void handle(String body) {
        RECEIVED.add("v1:" + body);
    }

    void routes(@Observes Router router) {
        router.get("/received").handler(rc -> rc.response().end(String.join(",", RECEIVED)));
    }
}
