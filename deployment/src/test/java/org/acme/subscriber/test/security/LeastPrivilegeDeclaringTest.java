package org.acme.subscriber.test.security;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The permissions the Security page lists for {@code declare-topology=true}, and no more: configure, write and read on
 * the subscription's own queues and exchange, and write on {@code amq.default} for its copies and dead letters. A
 * capped subscription with a waiting queue, bound to an exchange, retries to its dead-letter queue.
 */
@Tag("wire")
class LeastPrivilegeDeclaringTest extends BrokerScenarios {

    static final String USER = "t-least-declare";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.least.orders", "t.least.orders.dead", "t.least.orders.retry")
            .exchanges("t.least.shop")
            .before(admin -> NarrowUser.create(USER, "^t\\.least\\.", "^(amq\\.default|t\\.least\\..*)$",
                    "^t\\.least\\."))
            .givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, NarrowUser.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.username", USER)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.password", NarrowUser.PASSWORD);

    @AfterAll
    static void deleteUser() throws Exception {
        NarrowUser.delete(USER);
    }

    @Inject
    Handlers handlers;

    @Test
    void retriesAndDelaysToTheDeadLetterQueue() throws Exception {
        publish("t.least.orders", "order-1");
        await().atMost(Duration.ofSeconds(20)).until(() -> depth("t.least.orders.dead") == 1);
        assertEquals(List.of("order-1", "order-1", "order-1"), handlers.received());
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> received = new CopyOnWriteArrayList<>();

        List<String> received() {
            return received;
        }

        @Subscriber(value = "t.least.orders", maxAttempts = 3, deadLetter = "t.least.orders.dead", delay = Delay.DLX_TTL, bindings = @Binding(exchange = "t.least.shop", keys = "order.*"))
        Outcome receive(String body) {
            received.add(body);
            return received.size() == 1 ? Outcome.retryAfter(Duration.ofMillis(100)) : Outcome.retry();
        }
    }
}
