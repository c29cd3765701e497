package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** A quorum cap with nowhere to send the spent message is half a declaration: the build fails. */
class QuorumCapWithoutDeadLetterTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions(
                    "Handlers#handle(java.lang.String) sets maxAttempts on quorum queue 'b.q.half' without deadLetter: half a declaration"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.q.half", type = QueueType.QUORUM, maxAttempts = 5)
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
