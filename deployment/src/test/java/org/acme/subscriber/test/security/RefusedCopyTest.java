package org.acme.subscriber.test.security;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A user without write on {@code amq.default}: every copy of a retry is refused and the broker closes the channel.
 * One ERROR for the subscriber, then a growing wait between tries, so the handler runs a few times in seconds, not
 * in a hot loop; readiness says why; nothing is lost (the message stays in its queue).
 */
class RefusedCopyTest extends BrokerScenarios {

    static final String USER = "t-refused-copy";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.refusedcopy.orders", "t.refusedcopy.orders.dead")
            .before(admin -> NarrowUser.create(USER, "^t\\.refusedcopy\\.", "^t\\.refusedcopy\\.",
                    "^t\\.refusedcopy\\."));

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, NarrowUser.class, CapturedLogs.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", WireBroker.URL)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.username", USER)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.password", NarrowUser.PASSWORD)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "200ms")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.max-delay", "3s")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.jitter", "0");

    @AfterAll
    static void deleteUser() throws Exception {
        NarrowUser.delete(USER);
    }

    @Inject
    Handlers handlers;

    @Test
    void oneErrorAndAGrowingWaitNotAHotLoop() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            // Published as guest: this user may not write to the default exchange.
            RabbitAdmin.with(admin -> admin.publish("t.refusedcopy.orders", "order-1"));
            await().atMost(Duration.ofSeconds(10)).until(() -> handlers.received().size() >= 2);
            // Waits of 0.2, 0.4, 0.8, 1.6 and 3 s: about six runs in six seconds (a reset wait would give thirty).
            await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(8))
                    .until(() -> handlers.received().size() <= 8);
            List<String> refusals = logs.errors().stream().filter(line -> line.contains("refused a permission"))
                    .toList();
            assertEquals(1, refusals.size(), String.join("\n", logs.errors()));
            assertTrue(refusals.get(0).contains("ACCESS_REFUSED"), refusals.get(0));
        }
        // Never acknowledged away: it waits in its queue (or is redelivered) for the permission.
        assertEquals(0, depth("t.refusedcopy.orders.dead"));
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> received = new CopyOnWriteArrayList<>();

        List<String> received() {
            return received;
        }

        @Subscriber(value = "t.refusedcopy.orders", maxAttempts = 3, deadLetter = "t.refusedcopy.orders.dead")
        Outcome receive(String body) {
            received.add(body);
            return Outcome.retry();
        }
    }
}
