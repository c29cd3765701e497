package org.acme.subscriber.test.security;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A user that may configure every queue of the subscription but not read its waiting queue: declaring a queue that
 * dead-letters (the waiting queue dead-letters back to the work queue) needs read on it too. Startup stops naming the
 * waiting queue and the read permission; it used to name only configure, which the user had. RabbitMQ 4 says which it
 * refused ("read"); 3.x does not, so "configure or read".
 */
@Tag("wire")
class WaitingQueueReadRefusedTest {

    static final String USER = "t-refused-wqread";
    static final String CONNECTION = "waiting-queue-read-refused-test";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.wqread.orders", "t.wqread.orders.retry")
            .before(admin -> NarrowUser.create(USER, "^t\\.wqread\\.", "^(amq\\.default|t\\.wqread\\..*)$",
                    "^t\\.wqread\\.orders$"))
            .givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, NarrowUser.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.username", USER)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.password", NarrowUser.PASSWORD)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .assertException(Failures.startupRefused(CONNECTION, "read permission on queue 't.wqread.orders.retry'",
                    "needed to declare it",
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
        @Subscriber(value = "t.wqread.orders", maxAttempts = 3, delay = Delay.DLX_TTL)
        Outcome receive(String body) {
            return Outcome.retryAfter(java.time.Duration.ofSeconds(1));
        }
    }
}
