package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** A quorum cap while declare-topology is false would apply nowhere: the build fails. */
class QuorumCapWithoutDeclarationTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.declare-topology", "false")
            .assertException(Failures.mentions(
                    "Handlers#handle(java.lang.String) caps quorum queue 'b.q.undeclared' (maxAttempts) while quarkus.rabbitmq-subscriber.declare-topology is false"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.q.undeclared", type = QueueType.QUORUM, maxAttempts = 5, deadLetter = "b.q.undeclared.dead")
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
