package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** maxAttempts already sets a quorum queue's x-delivery-limit; a deliveryLimit beside it contradicts it: the build fails. */
class QuorumCapAndDeliveryLimitTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions(
                    "Handlers#handle(java.lang.String) sets both maxAttempts and deliveryLimit on quorum queue 'b.q.both'"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.q.both", type = QueueType.QUORUM, maxAttempts = 5, deadLetter = "b.q.both.dead", deliveryLimit = 9)
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
