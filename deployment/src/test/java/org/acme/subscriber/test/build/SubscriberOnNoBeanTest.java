package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** A @Subscriber the build finds on no bean (an interface's default method) fails the build instead of consuming nothing. */
class SubscriberOnNoBeanTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions(
                    "@Subscriber method org.acme.subscriber.test.build.SubscriberOnNoBeanTest$Handlers#handle(java.lang.String) is declared on an interface, so it would consume nothing"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    public interface Handlers {
        @Subscriber("b.interface")
        default void handle(String body) {
        }
    }
}
