package org.acme.subscriber.test.operate;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The kill switch on RabbitMQ in real time: a pause of 3 s, the outage over within it. */
@Tag("wire")
class KillSwitchOnRabbitMqTest extends KillSwitchScenarios {

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUES).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"k.orders\".kill-switch.failures", "3")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"k.orders\".kill-switch.pause", "3s")
            .setLogRecordPredicate(record -> String.valueOf(record.getMessage()).contains("kill switch"))
            .assertLogRecords(records -> assertEquals(2, records.size(), "one WARN each way"));

    @Override
    void duringTheOutage(Runnable check) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(check::run);
        // Paused: nothing more is attempted for a while.
        await().during(Duration.ofMillis(1_500)).atMost(Duration.ofSeconds(2)).untilAsserted(check::run);
    }

    @Override
    void afterThePause(BooleanSupplier done) {
        await().atMost(Duration.ofSeconds(15)).until(done::getAsBoolean);
    }
}
