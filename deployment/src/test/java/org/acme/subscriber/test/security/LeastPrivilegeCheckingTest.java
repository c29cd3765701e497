package org.acme.subscriber.test.security;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code declare-topology=false}: an operator declared the queues; the user has no configure permission at all, write
 * on {@code amq.default} only (copies and dead letters) and read on its work queue only. Retries reach the dead-letter
 * queue. RabbitMQ 4.3 refuses such a user even the passive declarations that check the queues exist: startup says it
 * cannot check them and goes on.
 */
@Tag("wire")
class LeastPrivilegeCheckingTest extends BrokerScenarios {

    /** Fixed: a run that ends early leaves it, and the next one deletes it before making it again. */
    static final String USER = "t-least-check";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.leastcheck.orders", "t.leastcheck.orders.dead")
            .before(admin -> {
                admin.declare("t.leastcheck.orders", Map.of());
                admin.declare("t.leastcheck.orders.dead", Map.of());
                NarrowUser.create(USER, "", "^amq\\.default$", "^t\\.leastcheck\\.orders$");
            }).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, NarrowUser.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.declare-topology", "false")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.username", USER)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.password", NarrowUser.PASSWORD);

    @AfterAll
    static void deleteUser() throws Exception {
        NarrowUser.delete(USER);
    }

    @Inject
    Handlers handlers;

    @Test
    void retriesToTheDeadLetterQueue() throws Exception {
        publish("t.leastcheck.orders", "order-1");
        // Looked at as the broker's admin: RabbitMQ 4.3 refuses this user even a passive declaration of the queue.
        await().atMost(Duration.ofSeconds(20))
                .until(() -> RabbitAdmin.withResult(admin -> admin.depth("t.leastcheck.orders.dead")) == 1);
        assertEquals(List.of("order-1", "order-1"), handlers.received());
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> received = new CopyOnWriteArrayList<>();

        List<String> received() {
            return received;
        }

        @Subscriber(value = "t.leastcheck.orders", maxAttempts = 2, deadLetter = "t.leastcheck.orders.dead")
        Outcome receive(String body) {
            received.add(body);
            return Outcome.retry();
        }
    }
}
