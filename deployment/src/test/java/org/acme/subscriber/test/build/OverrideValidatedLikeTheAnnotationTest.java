package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** A config override is checked like the annotation: a dead-letter queue without a cap fails the build, naming the method. */
class OverrideValidatedLikeTheAnnotationTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"b.c.overridden\".dead-letter", "b.c.overridden.dead")
            .assertException(Failures.mentions(
                    "Handlers#handle(java.lang.String) sets deadLetter on classic queue 'b.c.overridden' without maxAttempts"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber("b.c.overridden")
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
