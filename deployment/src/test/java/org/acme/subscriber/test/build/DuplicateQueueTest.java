package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** Two subscribers on one queue fail the build, naming both. */
class DuplicateQueueTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions("Queue 'b.shared' has 2 @Subscriber methods", "Handlers#first(java.lang.String)",
                    "Handlers#second(byte[])"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber("b.shared")
        Outcome first(String body) {
            return Outcome.ack();
        }

        @Subscriber("b.shared")
        void second(byte[] body) {
        }
    }
}
