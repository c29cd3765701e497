package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** deadLetterOn on a classic queue without a dead-letter queue fails the build, naming the types. */
class DeadLetterOnWithoutDeadLetterQueueTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions("sets deadLetterOn [IllegalArgumentException]",
                    "on classic queue 'b.dead-letter-on' without deadLetter"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.dead-letter-on", deadLetterOn = IllegalArgumentException.class)
        void handle(String body) {
        }
    }
}
