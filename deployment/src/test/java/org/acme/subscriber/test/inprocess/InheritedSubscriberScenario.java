package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.acme.subscriber.test.Scenarios;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;

/** A @Subscriber method declared on an abstract superclass consumes for the concrete bean. */
/** Run by {@link InProcessBasicsTest}, which calls each of its methods in one application with the others. */
interface InheritedSubscriberScenario {

    private InProcessBroker broker() {
        return Scenarios.bean(InProcessBroker.class);
    }

    private AuditConsumer consumer() {
        return Scenarios.bean(AuditConsumer.class);
    }

    default void theInheritedSubscriberConsumes() {
        broker().publish("inherited", "hello");
        broker().awaitIdle();
        assertEquals(List.of("audit:hello"), consumer().received);
    }

    public abstract static class BaseConsumer {
        final List<String> received = new CopyOnWriteArrayList<>();

        abstract String prefix();

        @Subscriber("inherited")
        void handle(String body) {
            received.add(prefix() + body);
        }
    }

    public static class AuditConsumer extends BaseConsumer {
        @Override
        String prefix() {
            return "audit:";
        }
    }
}
