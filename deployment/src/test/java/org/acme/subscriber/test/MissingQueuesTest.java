package org.acme.subscriber.test;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/** With declare-topology off, startup checks the queues passively and refuses to start, naming every missing one. */
@Tag("wire")
class MissingQueuesTest {

    /** A failed start releases its connection: Quarkus fires no ShutdownEvent for it. */
    static final String CONNECTION = "missing-queues-test-" + ProcessHandle.current().pid();

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.missing.one", "t.missing.two").givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.declare-topology", "false")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .assertException(
                    Failures.startupRefused(CONNECTION, "declare-topology is false", "'t.missing.one'", "'t.missing.two'"));

    @Test
    void startupFails() {
        fail("startup should have failed");
    }

    public static class Handlers {
        @Subscriber("t.missing.one")
        Outcome one(String body) {
            return Outcome.ack();
        }

        @Subscriber("t.missing.two")
        void two(String body) {
        }
    }
}
