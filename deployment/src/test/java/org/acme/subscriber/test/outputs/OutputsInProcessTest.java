package org.acme.subscriber.test.outputs;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** The outputs scenarios on the in-process broker: no waiting, it settles everything that can happen now. */
class OutputsInProcessTest extends OutputsScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");
}
