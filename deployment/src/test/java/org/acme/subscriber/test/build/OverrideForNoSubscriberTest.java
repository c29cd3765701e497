package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** A per-queue override naming a queue no subscriber consumes is a typo or a leftover: the build fails. */
class OverrideForNoSubscriberTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"b.c.typo\".max-attempts", "3")
            .assertException(Failures.mentions(
                    "quarkus.rabbitmq-subscriber.queues.\"b.c.typo\".* overrides queue 'b.c.typo', which no @Subscriber method consumes (they consume [b.c.real])"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber("b.c.real")
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
