package org.acme.subscriber.test.scenarios;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** The retry scenarios on the in-process broker: no waiting, the broker settles everything that can happen now. */
class RetryScenariosInProcessTest extends RetryScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");
}
