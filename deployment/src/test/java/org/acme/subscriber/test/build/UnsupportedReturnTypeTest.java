package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** A return type the runtime cannot settle fails the build. */
class UnsupportedReturnTypeTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions("Handlers#handle(java.lang.String) returns java.lang.String",
                    "Handlers#async(java.lang.String) returns io.smallrye.mutiny.Uni<java.lang.String>"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber("b.bad-return")
        String handle(String body) {
            return body;
        }

        @Subscriber("b.bad-uni")
        io.smallrye.mutiny.Uni<String> async(String body) {
            return null;
        }
    }
}
