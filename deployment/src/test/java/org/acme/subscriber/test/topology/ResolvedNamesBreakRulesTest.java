package org.acme.subscriber.test.topology;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The rules that compare names run again once names from the configuration are resolved, with the build's messages:
 * a dead-letter queue that resolves to the work queue, two subscribers whose queues resolve to one.
 */
class ResolvedNamesBreakRulesTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("t.work", "t.resolved.same")
            .overrideConfigKey("t.dead", "t.resolved.same")
            .overrideConfigKey("t.left", "t.resolved.shared")
            .overrideConfigKey("t.right", "t.resolved.shared")
            .assertException(Failures.mentions(
                    "Handlers#work(java.lang.String) sets deadLetter = 't.resolved.same', its own queue",
                    "Queue 't.resolved.shared' has 2 @Subscriber methods",
                    "Handlers#reserved(java.lang.String) consumes queue 'amq.t.resolved': RabbitMQ reserves"));

    @Test
    void startupFails() {
        fail("startup should have failed");
    }

    public static class Handlers {
        @Subscriber(value = "${t.work}", maxAttempts = 3, deadLetter = "${t.dead}")
        Outcome work(String body) {
            return Outcome.ack();
        }

        @Subscriber("${t.left}")
        void left(String body) {
        }

        @Subscriber("${t.right}")
        void right(String body) {
        }

        @Subscriber("${t.reserved:amq.t.resolved}")
        void reserved(String body) {
        }
    }
}
