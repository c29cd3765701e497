package org.acme.subscriber.test.partitions;

import java.time.Duration;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The partition scenarios on the RabbitMQ under test (3.10.8, and 4.0.5 in CI's second run). */
@Tag("wire")
class PartitionsOnRabbitMqTest extends PartitionScenarios {

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUES).exchanges(EXCHANGES).givesUrl()
            .needsPlugin(WireBroker.Plugin.CONSISTENT_HASH);

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION));

    @Override
    void elapse(Duration duration) {
        // Real time passes while until() waits.
    }
}
