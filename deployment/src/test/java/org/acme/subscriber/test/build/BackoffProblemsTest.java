package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Backoff;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A back-off that cannot work fails the build, every problem at once: without a cap (a message that always fails
 * would wait and come back for ever), a wait that is no duration, a multiplier below 1, a bound shorter than the first
 * wait, a bound without a first wait; and an override is judged like the annotation.
 */
class BackoffProblemsTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"b.backoff.override\".backoff.initial", "later")
            .assertException(Failures.mentions(
                    "Handlers#uncapped(java.lang.String) sets a back-off without maxAttempts",
                    "Handlers#notADuration(java.lang.String) sets @Backoff(initial): 'soon' is not a duration",
                    "Handlers#shrinking(java.lang.String) sets @Backoff(multiplier = 0.5)",
                    "Handlers#shrinking(java.lang.String) sets @Backoff(initial = \"1m\", max = \"1s\"): the longest wait "
                            + "is shorter than the first",
                    "Handlers#maxOnly(java.lang.String) sets @Backoff(max = \"1m\") without initial",
                    "Handlers#overridden(java.lang.String) sets @Backoff(initial): 'later' is not a duration"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.backoff.uncapped", backoff = @Backoff(initial = "1s"))
        void uncapped(String body) {
        }

        @Subscriber(value = "b.backoff.duration", maxAttempts = 3, deadLetter = "b.backoff.duration.dead", backoff = @Backoff(initial = "soon"))
        void notADuration(String body) {
        }

        @Subscriber(value = "b.backoff.shrinking", maxAttempts = 3, deadLetter = "b.backoff.shrinking.dead", backoff = @Backoff(initial = "1m", multiplier = 0.5, max = "1s"))
        void shrinking(String body) {
        }

        @Subscriber(value = "b.backoff.max", maxAttempts = 3, deadLetter = "b.backoff.max.dead", backoff = @Backoff(max = "1m"))
        void maxOnly(String body) {
        }

        @Subscriber(value = "b.backoff.override", maxAttempts = 3, deadLetter = "b.backoff.override.dead", backoff = @Backoff(initial = "1s"))
        void overridden(String body) {
        }
    }
}
