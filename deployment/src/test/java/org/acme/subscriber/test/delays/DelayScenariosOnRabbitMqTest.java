package org.acme.subscriber.test.delays;

import java.time.Duration;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The delay scenarios on the local RabbitMQ 3.10.8, with delays of 300 ms. */
@Tag("wire")
class DelayScenariosOnRabbitMqTest extends DelayScenarios {

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUES).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class));

    @Override
    void waitOut(Duration delay) {
        // The wall clock does it: until() waits.
    }

    @Override
    Duration shortDelay() {
        return Duration.ofMillis(300);
    }
}
