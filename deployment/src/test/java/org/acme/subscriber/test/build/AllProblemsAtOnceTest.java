package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** Every problem of every method is reported in one build failure. */
class AllProblemsAtOnceTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions("Handlers#hidden(java.lang.String) is private",
                    "Handlers#count(java.lang.String) returns int", "Handlers#nothing() has no payload parameter"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber("b.all.one")
        private Outcome hidden(String body) {
            return Outcome.ack();
        }

        @Subscriber("b.all.two")
        int count(String body) {
            return 0;
        }

        @Subscriber("b.all.three")
        Outcome nothing() {
            return Outcome.ack();
        }
    }
}
