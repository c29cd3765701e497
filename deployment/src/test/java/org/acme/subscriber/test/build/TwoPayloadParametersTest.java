package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** Two payload parameters fail the build. */
class TwoPayloadParametersTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions("Handlers#handle(java.lang.String, byte[])", "declares two payload parameters"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber("b.two-payloads")
        Outcome handle(String first, byte[] second) {
            return Outcome.ack();
        }
    }
}
