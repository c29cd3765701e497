package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/** delay = PLUGIN without the delayed-message exchange enabled in config: the build fails. */
class PluginDelayWithoutExchangeTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions("Handlers#handle(java.lang.String) sets delay = PLUGIN but the "
                    + "delayed-message exchange is not enabled: set quarkus.rabbitmq-subscriber.delayed-exchange.enabled=true"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.plugin", delay = Delay.PLUGIN)
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
