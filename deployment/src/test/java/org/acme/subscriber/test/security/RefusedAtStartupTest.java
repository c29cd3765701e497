package org.acme.subscriber.test.security;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/** A user that may not configure the dead-letter queue: startup stops with one error naming it and the permission. */
@Tag("wire")
class RefusedAtStartupTest {

    static final String USER = "t-refused-start";
    static final String CONNECTION = "refused-at-startup-test";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.refused.orders", "t.refused.orders.dead")
            .before(admin -> NarrowUser.create(USER, "^t\\.refused\\.orders$", "^(amq\\.default|t\\.refused\\..*)$",
                    "^t\\.refused\\."))
            .givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, NarrowUser.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.username", USER)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.password", NarrowUser.PASSWORD)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .assertException(Failures.startupRefused(CONNECTION, "RabbitMQ refused the configure permission on queue "
                    + "'t.refused.orders.dead' (dead letters of 't.refused.orders'), needed to declare it",
                    "refused for user '" + USER + "'").andThen(NarrowUser.deletedAfter(USER)));

    @AfterAll
    static void deleteUser() throws Exception {
        NarrowUser.delete(USER);
    }

    @Test
    void startupFails() {
        fail("startup should have failed");
    }

    public static class Handlers {
        @Subscriber(value = "t.refused.orders", maxAttempts = 2, deadLetter = "t.refused.orders.dead")
        Outcome receive(String body) {
            return Outcome.retry();
        }
    }
}
