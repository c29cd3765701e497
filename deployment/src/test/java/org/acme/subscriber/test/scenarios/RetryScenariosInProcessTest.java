package org.acme.subscriber.test.scenarios;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The retry scenarios on the in-process broker: no waiting, the broker settles everything that can happen now. */
class RetryScenariosInProcessTest extends RetryScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Override
    void until(BooleanSupplier condition) {
        broker.awaitIdle();
        assertTrue(condition.getAsBoolean(), "not so once the in-process broker is idle");
    }
}
