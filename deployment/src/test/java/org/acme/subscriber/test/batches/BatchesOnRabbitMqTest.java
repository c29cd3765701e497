package org.acme.subscriber.test.batches;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The batch scenarios on RabbitMQ (3.10.8 here; 4.3.6 in .ci/run's second run). */
@Tag("wire")
class BatchesOnRabbitMqTest extends BatchScenarios {

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUES).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION));
}
