package org.acme.subscriber.test.topology;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The binding scenarios on the in-process broker, its clock paused. */
class BindingScenariosInProcessTest extends BindingScenarios {

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
