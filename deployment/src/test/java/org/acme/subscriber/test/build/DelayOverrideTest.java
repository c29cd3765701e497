package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/** The delay overrides in config are checked like the annotation: a per-delay strategy set in config needs delays. */
class DelayOverrideTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"b.o.delay\".delay", "dlx-ttl-per-delay")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"b.o.plugin\".delay", "plugin")
            .assertException(Failures.mentions(
                    "Handlers#delay(java.lang.String) sets delay = DLX_TTL_PER_DELAY without delays",
                    "Handlers#plugin(java.lang.String) sets delay = PLUGIN but the delayed-message exchange is not enabled"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber("b.o.delay")
        Outcome delay(String body) {
            return Outcome.ack();
        }

        @Subscriber("b.o.plugin")
        Outcome plugin(String body) {
            return Outcome.ack();
        }
    }
}
