package org.acme.subscriber.test.topology;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With declare-topology off, startup checks each bound exchange passively, and refuses to start naming every missing
 * one with the queues bound to it.
 */
@Tag("wire")
class MissingExchangeTest {

    static final String CONNECTION = "missing-exchange-test-" + ProcessHandle.current().pid();

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.noexchange.orders").exchanges("t.noexchange.shop")
            .before(admin -> admin.declare("t.noexchange.orders", java.util.Map.of())).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.declare-topology", "false")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .assertException(Failures.startupRefused(CONNECTION, "declare-topology is false and this does not exist",
                    "exchange 't.noexchange.shop' (topic, bound to queue 't.noexchange.orders')"));

    @Test
    void startupFails() {
        fail("startup should have failed");
    }

    public static class Handlers {
        @Subscriber(value = "t.noexchange.orders", bindings = @Binding(exchange = "t.noexchange.shop"))
        void orders(String body) {
        }
    }
}
