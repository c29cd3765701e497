package org.acme.subscriber.test.operate;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The kill switch on the in-process broker's paused clock: an outage of 30 s, a pause of 60 s, passed at once. Without
 * the switch the ten messages would spend their five attempts each within the outage and all be dead-lettered.
 */
class KillSwitchInProcessTest extends KillSwitchScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"k.orders\".kill-switch.failures", "3")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"k.orders\".kill-switch.pause", "60s")
            .setLogRecordPredicate(record -> String.valueOf(record.getMessage()).contains("kill switch"))
            .assertLogRecords(records -> assertEquals(2, records.size(), "one WARN each way"));

    @Inject
    InProcessBroker broker;

    @Override
    void duringTheOutage(Runnable check) {
        // The supervisor pauses on its own thread: settled once the broker is idle and the pause has landed.
        await().untilAsserted(() -> {
            broker.awaitIdle();
            check.run();
        });
        broker.advance(Duration.ofSeconds(30));
        broker.awaitIdle();
        check.run();
    }

    @Override
    void afterThePause(BooleanSupplier done) {
        broker.advance(Duration.ofSeconds(30));
        await().until(() -> {
            broker.awaitIdle();
            return done.getAsBoolean();
        });
    }
}
