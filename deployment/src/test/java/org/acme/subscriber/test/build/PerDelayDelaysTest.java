package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The delays of DLX_TTL_PER_DELAY are read at build time, so each waiting queue can be declared: none listed, a delay
 * that is no duration, a zero delay, one listed twice, and delays on another strategy all fail the build at once.
 */
class PerDelayDelaysTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions(
                    "Handlers#none(java.lang.String) sets delay = DLX_TTL_PER_DELAY without delays",
                    "Handlers#bad(java.lang.String) lists delay 'soon' is not a duration",
                    "Handlers#bad(java.lang.String) lists delay '0s': a delay must be longer than zero",
                    "Handlers#bad(java.lang.String) lists the delay 30s twice ('PT30S')",
                    "Handlers#other(java.lang.String) lists delays [1s] with delay = DLX_TTL: only DLX_TTL_PER_DELAY"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.per.none", delay = Delay.DLX_TTL_PER_DELAY)
        Outcome none(String body) {
            return Outcome.ack();
        }

        @Subscriber(value = "b.per.bad", delay = Delay.DLX_TTL_PER_DELAY, delays = { "soon", "0s", "30s", "PT30S" })
        Outcome bad(String body) {
            return Outcome.ack();
        }

        @Subscriber(value = "b.per.other", delay = Delay.DLX_TTL, delays = "1s")
        Outcome other(String body) {
            return Outcome.ack();
        }
    }
}
