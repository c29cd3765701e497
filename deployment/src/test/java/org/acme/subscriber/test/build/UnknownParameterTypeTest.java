package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** A parameter that is neither a payload nor Delivery fails the build. */
class UnknownParameterTypeTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions("Handlers#handle(java.lang.String, com.rabbitmq.client.Envelope)",
                    "parameter 2 of unsupported type com.rabbitmq.client.Envelope"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber("b.unknown-parameter")
        Outcome handle(String body, com.rabbitmq.client.Envelope envelope) {
            return Outcome.ack();
        }
    }
}
