package org.acme.subscriber.test.outputs;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The outputs scenarios on RabbitMQ (3.10.8 here, 4.0.5 in CI's second run). */
@Tag("wire")
class OutputsOnRabbitMqTest extends OutputsScenarios {

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUES).exchanges(EXCHANGE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION));
}
