package org.acme.subscriber.test.operate;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.event.Observes;

import org.acme.subscriber.test.Scenarios;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.SubscriberEvent;
import io.quarkiverse.rabbitmq.subscriber.Subscriptions;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;

/**
 * An operator pauses a subscriber: its consumer is cancelled, what is published meanwhile waits in RabbitMQ, readiness
 * stays UP and lists it as paused; resumed, it takes everything that waited. A queue no subscriber consumes is refused
 * by name.
 */
/**
 * Run by {@link org.acme.subscriber.test.WireBasicsTest}, which calls each of its methods in one application with the others.
 */
public interface SubscriptionsPauseScenario {

    private Subscriptions subscriptions() {
        return Scenarios.bean(Subscriptions.class);
    }

    private SubscriberStatus status() {
        return Scenarios.bean(SubscriberStatus.class);
    }

    private Handlers handlers() {
        return Scenarios.bean(Handlers.class);
    }

    static final String QUEUE = "t.operate.pause";

    default void aPausedSubscriberTakesNothingUntilResumed() throws Exception {
        assertEquals(Subscriptions.State.CONSUMING, subscriptions().state(QUEUE));
        subscriptions().pause(QUEUE);
        // Observers hear it as a CDI event, before pause returns.
        assertEquals(List.of(new SubscriberEvent.Paused(QUEUE)), handlers().events());
        await().until(() -> subscriptions().state(QUEUE) == Subscriptions.State.PAUSED);
        RabbitAdmin.with(admin -> {
            await().until(() -> admin.consumers(QUEUE) == 0);
            for (int i = 0; i < 5; i++) {
                admin.publish(QUEUE, "m-" + i);
            }
        });
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> handlers().received().isEmpty());
        assertEquals(5L, (long) RabbitAdmin.<Long> withResult(admin -> admin.depth(QUEUE)), "waiting in RabbitMQ");
        assertTrue(status().notReady().isEmpty(), "readiness stays UP: " + status().notReady());
        assertEquals(List.of(QUEUE), status().paused());

        subscriptions().resume(QUEUE);
        assertEquals(List.of(new SubscriberEvent.Paused(QUEUE), new SubscriberEvent.Resumed(QUEUE)), handlers().events());
        await().atMost(Duration.ofSeconds(10)).until(() -> handlers().received().size() == 5);
        assertEquals(Subscriptions.State.CONSUMING, subscriptions().state(QUEUE));
        assertEquals(List.of(), status().paused());

        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> subscriptions().pause("t.operate.nobody"));
        assertTrue(unknown.getMessage().contains("'t.operate.nobody'") && unknown.getMessage().contains(QUEUE),
                unknown.getMessage());
    }

    public static class Handlers {
        private final List<String> received = new CopyOnWriteArrayList<>();

        List<String> received() {
            return received;
        }

        private final List<SubscriberEvent> events = new CopyOnWriteArrayList<>();

        List<SubscriberEvent> events() {
            return events;
        }

        /** This scenario's queue only: the application is shared with other scenarios. */
        void on(@Observes SubscriberEvent event) {
            if (event.queue().equals(QUEUE)) {
                events.add(event);
            }
        }

        @Subscriber(QUEUE)
        void handle(String body) {
            received.add(body);
        }
    }
}
