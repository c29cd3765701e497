package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** broker=auto with no RabbitMQ reachable (outside prod mode): the in-process broker, and one loud warning. */
class AutoFallbackTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "auto")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:guest@127.0.0.1:1")
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                    && record.getLoggerName().startsWith("io.quarkiverse.rabbitmq.subscriber"))
            .assertLogRecords(records -> {
                List<String> warnings = records.stream().map(r -> r.getMessage()).filter(m -> m.contains("IN-PROCESS"))
                        .toList();
                assertEquals(1, warnings.size(), () -> "one loud warning, got " + warnings);
                assertTrue(warnings.get(0).contains("127.0.0.1:1"), warnings.get(0));
            });

    @Inject
    InProcessBroker broker;

    @Inject
    Handler handler;

    @Test
    void fallsBackToTheInProcessBroker() {
        broker.publish("auto.q", "hello");
        broker.awaitIdle();
        assertEquals(List.of("hello"), handler.received);
    }

    public static class Handler {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Subscriber("auto.q")
        void handle(String body) {
            received.add(body);
        }
    }
}
