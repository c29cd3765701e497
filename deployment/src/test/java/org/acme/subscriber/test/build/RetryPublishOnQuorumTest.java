package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.*;
import io.quarkus.test.QuarkusUnitTest;

/** retryPublish on a quorum queue chooses how to publish copies that never exist there: the build fails. */
class RetryPublishOnQuorumTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions(
                    "Handlers#handle(java.lang.String) sets retryPublish on quorum queue 'b.q.publish': the server counts and dead-letters there"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.q.publish", type = QueueType.QUORUM, maxAttempts = 5, deadLetter = "b.q.publish.dead", retryPublish = RetryPublish.CONFIRMED)
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
