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

/**
 * A user without write on {@code amq.default}, whose queues exist already: nothing at startup declares anything, so
 * before the startup check it started, and every copy of a retry was refused, the broker closing the copies' channel
 * at each (the handler ran again and again on a redelivered message). Now startup stops, naming the exchange, the
 * permission and the subscriber that needs it.
 */
@Tag("wire")
class RefusedCopyTest {

    static final String USER = "t-refused-copy";
    static final String CONNECTION = "refused-copy-test";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.refusedcopy.orders", "t.refusedcopy.orders.dead")
            .before(admin -> {
                admin.declare("t.refusedcopy.orders", java.util.Map.of());
                admin.declare("t.refusedcopy.orders.dead", java.util.Map.of());
                NarrowUser.create(USER, "^t\\.refusedcopy\\.", "^t\\.refusedcopy\\.", "^t\\.refusedcopy\\.");
            }).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, NarrowUser.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.username", USER)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.password", NarrowUser.PASSWORD)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .assertException(Failures.startupRefused(CONNECTION, "RabbitMQ refused the write permission on exchange "
                    + "'amq.default', needed to publish the copies, dead letters and delayed retries of the "
                    + "subscribers of [t.refusedcopy.orders] (checked at startup)", "refused for user '" + USER + "'")
                    .andThen(NarrowUser.deletedAfter(USER)));

    @AfterAll
    static void deleteUser() throws Exception {
        NarrowUser.delete(USER);
    }

    @Test
    void startupFails() {
        fail("startup should have failed");
    }

    public static class Handlers {
        @Subscriber(value = "t.refusedcopy.orders", maxAttempts = 3, deadLetter = "t.refusedcopy.orders.dead")
        Outcome receive(String body) {
            return Outcome.retry();
        }
    }
}
