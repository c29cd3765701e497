package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** A payload whose type has a type variable cannot be decoded: the build fails naming it. */
class TypeVariablePayloadTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions(
                    "Handlers#handle(java.util.Map<", "that cannot be decoded: T is a type variable"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    @jakarta.enterprise.context.Dependent
    static class Handlers<T> {
        @Subscriber("b.generic")
        void handle(java.util.Map<String, T> items) {
        }
    }
}
