package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** RabbitMQ refuses queue names starting with amq.: the build says so first. */
class ReservedQueueNameTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions(
                    "Handlers#handle(java.lang.String) consumes queue 'amq.mine': RabbitMQ reserves the 'amq.' prefix"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber("amq.mine")
        void handle(String body) {
        }
    }
}
