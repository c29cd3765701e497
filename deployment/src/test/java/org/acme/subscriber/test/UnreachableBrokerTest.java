package org.acme.subscriber.test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/** A broker that cannot be reached fails startup with an error naming the address, without its password. */
class UnreachableBrokerTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:topsecret@127.0.0.1:1")
            .assertException(Failures.mentions("Cannot connect to RabbitMQ at amqp://guest:***@127.0.0.1:1")
                    .andThen(failure -> assertFalse(Failures.render(failure).contains("topsecret"))));

    @Test
    void startupFails() {
        fail("startup should have failed");
    }

    public static class Handler {
        @Subscriber("t.unreachable")
        void handle(String body) {
        }
    }
}
