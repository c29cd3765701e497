package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** A quorum dead-letter route with no cap is half a declaration: the build fails. */
class QuorumDeadLetterWithoutCapTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions(
                    "Handlers#handle(java.lang.String) sets deadLetter on quorum queue 'b.q.route' without maxAttempts: half a declaration"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.q.route", type = QueueType.QUORUM, deadLetter = "b.q.route.dead")
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
