package org.acme.subscriber.test.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessControls;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A consumer the broker stops delivering to while it still counts it (a quorum queue's consumer after its leader
 * moved, emulated by the in-process broker: deliveries handed out, never sent): the stall watch sees ready messages
 * whose count never goes down while the subscriber gets nothing, and it consumes again on a fresh channel, whose close
 * gives back what the lost deliveries held. Without the watch the six messages would wait for good. On the wall clock,
 * with a 2 s timeout.
 */
class StalledConsumerInProcessTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.in-process.clock", "wall")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.stall-timeout", "2s")
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                    && record.getLoggerName().startsWith("io.quarkiverse.rabbitmq.subscriber"))
            .assertLogRecords(records -> {
                List<String> stalls = records.stream()
                        .map(record -> ((org.jboss.logmanager.ExtLogRecord) record).getFormattedMessage())
                        .filter(message -> message.contains("Consuming again on a fresh channel")).toList();
                assertEquals(1, stalls.size(), () -> "one WARN for the stall, got " + stalls);
                assertTrue(stalls.get(0).contains("queue 'stall.q' kept 4 message(s) ready"), stalls.get(0));
            });

    @Inject
    InProcessBroker broker;

    @Inject
    InProcessControls controls;

    @Inject
    Handler handler;

    @Test
    void aConsumerTheBrokerStoppedDeliveringToConsumesAgain() throws Exception {
        broker.publish("stall.q", "m0");
        await().atMost(Duration.ofSeconds(10)).until(() -> handler.received.size() == 1);

        controls.server().loseDeliveries("stall.q");
        for (int i = 1; i <= 6; i++) {
            broker.publish("stall.q", "m" + i);
        }
        // Two handed out and lost (the prefetch), four ready: found within one and a half timeouts, then all handled.
        await().atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> assertEquals(Set.of("m0", "m1", "m2", "m3", "m4", "m5", "m6"),
                        new TreeSet<>(handler.received)));
        assertEquals(7, handler.received.size(), () -> "each once: " + handler.received);
    }

    @Singleton
    public static class Handler {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Subscriber(value = "stall.q", prefetch = 2)
        void handle(String body) {
            received.add(body);
        }
    }
}
