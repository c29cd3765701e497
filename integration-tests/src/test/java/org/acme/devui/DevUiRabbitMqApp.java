package org.acme.devui;

import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.arc.profile.IfBuildProfile;

/**
 * The RabbitMQ Dev UI test's application: an order the stock service refuses goes to the dead-letter queue at once;
 * once replayed (the stock service fixed), it is taken. Only in dev mode, as {@link DevUiApp}.
 */
@IfBuildProfile("dev")
public class DevUiRabbitMqApp {

    static final String ORDERS = "devui.rabbit.orders";
    static final String DEAD = ORDERS + ".dead";

    @Subscriber(value = ORDERS, maxAttempts = 3, deadLetter = DEAD)
    Outcome order(String body, Delivery delivery) {
        return delivery.header(DeadLetters.REPLAYED_HEADER) == null ? Outcome.deadLetter("the stock service says no")
                : Outcome.ack();
    }
}
