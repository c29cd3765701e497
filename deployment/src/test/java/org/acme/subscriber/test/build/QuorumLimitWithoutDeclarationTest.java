package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** A quorum delivery limit while declare-topology is false would apply nowhere: the build fails. */
class QuorumLimitWithoutDeclarationTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.declare-topology", "false")
            .assertException(Failures.mentions(
                    "Handlers#handle(java.lang.String) caps quorum queue 'b.quorum-undeclared' (deliveryLimit) while quarkus.rabbitmq-subscriber.declare-topology is false"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.quorum-undeclared", type = QueueType.QUORUM, deliveryLimit = 4)
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
