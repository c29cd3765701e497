package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/** A waitingQueue on a strategy that has none (IN_SERVICE, PLUGIN) would be ignored: the build fails. */
class WaitingQueueWithoutOneTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.delayed-exchange.enabled", "true")
            .assertException(Failures.mentions(
                    "Handlers#inService(java.lang.String) sets waitingQueue = 'b.wait.one.later' with delay = IN_SERVICE, which has no waiting queue",
                    "Handlers#plugin(java.lang.String) sets waitingQueue = 'b.wait.two.later' with delay = PLUGIN, which has no waiting queue"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.wait.one", waitingQueue = "b.wait.one.later")
        Outcome inService(String body) {
            return Outcome.ack();
        }

        @Subscriber(value = "b.wait.two", delay = Delay.PLUGIN, waitingQueue = "b.wait.two.later")
        Outcome plugin(String body) {
            return Outcome.ack();
        }
    }
}
