package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.InProcessBroker;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/** A @Subscriber method declared on an abstract superclass consumes for the concrete bean. */
class InheritedSubscriberTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(BaseConsumer.class, AuditConsumer.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    AuditConsumer consumer;

    @Test
    void theInheritedSubscriberConsumes() {
        broker.publish("inherited", "hello");
        broker.awaitIdle();
        assertEquals(List.of("audit:hello"), consumer.received);
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
