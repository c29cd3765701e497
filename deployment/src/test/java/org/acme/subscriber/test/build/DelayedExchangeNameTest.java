package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/** A delayed-message exchange named in RabbitMQ's reserved 'amq.' prefix could never be declared: the build fails. */
class DelayedExchangeNameTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.delayed-exchange.enabled", "true")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.delayed-exchange.name", "amq.delayed")
            .assertException(Failures.mentions("quarkus.rabbitmq-subscriber.delayed-exchange.name='amq.delayed' cannot "
                    + "be declared: name an exchange outside RabbitMQ's reserved 'amq.' prefix"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.exchange.name", delay = Delay.PLUGIN)
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
