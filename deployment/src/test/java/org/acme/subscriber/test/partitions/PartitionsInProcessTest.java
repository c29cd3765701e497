package org.acme.subscriber.test.partitions;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The partition scenarios on the in-process broker, its clock paused. */
class PartitionsInProcessTest extends PartitionScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Override
    void elapse(Duration duration) {
        broker.advance(duration);
    }
}
