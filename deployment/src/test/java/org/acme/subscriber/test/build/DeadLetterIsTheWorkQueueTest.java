package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** Dead letters sent back to the queue they came from would be consumed again as work: the build fails. */
class DeadLetterIsTheWorkQueueTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(
                    Failures.mentions("Handlers#handle(java.lang.String) sets deadLetter = 'b.c.self', its own queue"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.c.self", maxAttempts = 3, deadLetter = "b.c.self")
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
