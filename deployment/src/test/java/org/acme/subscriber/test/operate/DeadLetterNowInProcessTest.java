package org.acme.subscriber.test.operate;

import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The dead-letter-now scenarios on the in-process broker. */
class DeadLetterNowInProcessTest extends DeadLetterNowScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;
}
