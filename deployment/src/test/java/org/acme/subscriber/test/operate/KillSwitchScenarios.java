package org.acme.subscriber.test.operate;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.SubscriberEvent;
import io.quarkiverse.rabbitmq.subscriber.Subscriptions;

/**
 * A downstream outage with a kill switch of 3 failures: the first three attempts fail, the switch pauses the
 * subscriber, and the other messages wait in RabbitMQ instead of spending their five attempts each; after the pause
 * (the outage over by then) every message is handled and none reaches the dead-letter queue. Written once, run with
 * the in-process broker's paused clock and with RabbitMQ in real time.
 */
abstract class KillSwitchScenarios extends BrokerScenarios {

    static final String ORDERS = "k.orders";
    static final String ORDERS_DEAD = "k.orders.dead";
    static final String[] QUEUES = { ORDERS, ORDERS_DEAD };
    static final int MESSAGES = 10;

    @Inject
    Handlers handlers;

    @Inject
    Subscriptions subscriptions;

    /** Lets the outage's first part pass: the switch trips and the subscriber stays paused. */
    abstract void duringTheOutage(Runnable check);

    /** Lets the rest of the pause pass, the outage over, until every message is handled. */
    abstract void afterThePause(java.util.function.BooleanSupplier done);

    @Test
    void anOutageSpendsTheSwitchsFailuresNotEveryMessagesCap() throws Exception {
        handlers.outage.set(true);
        for (int i = 0; i < MESSAGES; i++) {
            publish(ORDERS, "order-" + i);
        }
        duringTheOutage(() -> {
            assertEquals(3, handlers.attempts.get(), "three failures in a row trip it");
            assertEquals(Subscriptions.State.PAUSED, subscriptions.state(ORDERS));
        });
        handlers.outage.set(false);
        afterThePause(() -> handlers.handled.get() == MESSAGES);
        assertEquals(MESSAGES + 3, handlers.attempts.get(), "three failed attempts in all, then one each");
        assertEquals(0, depth(ORDERS_DEAD), "no message used up its cap");
        assertEquals(Subscriptions.State.CONSUMING, subscriptions.state(ORDERS));
        // Observers hear both ends of the pause as CDI events (fired on a worker thread: awaited).
        await().until(() -> handlers.events.size() == 2);
        SubscriberEvent.KillSwitchTripped tripped = (SubscriberEvent.KillSwitchTripped) handlers.events.get(0);
        assertEquals(ORDERS, tripped.queue());
        assertEquals(3, tripped.failures());
        assertEquals(new SubscriberEvent.Resumed(ORDERS), handlers.events.get(1));
    }

    public static class Handlers {
        final AtomicBoolean outage = new AtomicBoolean();
        final AtomicInteger attempts = new AtomicInteger();
        final AtomicInteger handled = new AtomicInteger();
        final List<SubscriberEvent> events = new CopyOnWriteArrayList<>();

        void on(@Observes SubscriberEvent event) {
            events.add(event);
        }

        /** One at a time, so the failures in a row are counted exactly. */
        @Subscriber(value = ORDERS, maxAttempts = 5, deadLetter = ORDERS_DEAD, concurrency = 1)
        void order(String body) {
            attempts.incrementAndGet();
            if (outage.get()) {
                throw new IllegalStateException("the payment service is down");
            }
            handled.incrementAndGet();
        }
    }
}
