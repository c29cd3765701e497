package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** A delivery limit on a classic queue fails the build: only quorum queues count. */
class DeliveryLimitOnClassicQueueTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions("Handlers#handle(java.lang.String) sets deliveryLimit on a classic queue"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.classic-limit", deliveryLimit = 3)
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
