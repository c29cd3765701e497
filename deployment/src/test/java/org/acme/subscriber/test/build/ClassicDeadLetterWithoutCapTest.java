package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** A dead-letter queue on a classic queue with no cap would never be used: the build fails. */
class ClassicDeadLetterWithoutCapTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions(
                    "Handlers#handle(java.lang.String) sets deadLetter on classic queue 'b.c.route' without maxAttempts: the route would never be used"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.c.route", deadLetter = "b.c.route.dead")
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
