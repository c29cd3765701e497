package org.acme.subscriber.test.delays;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * delay = PLUGIN on a RabbitMQ with the delayed-message plugin (RabbitMQ 4.0.5 in CI): a copy delayed by 300 ms
 * overtakes one delayed by 3 s, and the cap ends a loop of delayed copies with the dead letter.
 * Runs only where the broker has the plugin; Debian's RabbitMQ 3.10.8 does not ship it, so it is skipped there, and
 * the in-process broker's PLUGIN scenario stands in for it.
 */
@Tag("wire")
@Tag("plugin")
class DelayedExchangeOnRabbitMqTest {

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.plugin", "t.plugin.capped").withDeadLetterQueues()
            .exchanges("t.plugin.delayed").needsDelayedMessagePlugin().givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.delayed-exchange.enabled", "true")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.delayed-exchange.name", "t.plugin.delayed");

    @Inject
    Handlers handlers;

    @Test
    void copiesComeBackInOrderOfDueTime() throws Exception {
        RabbitAdmin.with(admin -> {
            admin.publish("t.plugin", "long:3000");
            admin.publish("t.plugin", "short:300");
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> handlers.log.size() == 4);
        assertEquals(List.of("short:300|2", "long:3000|2"), handlers.log.subList(2, 4));
    }

    @Test
    void theCapEndsAPluginDelayedLoop() throws Exception {
        RabbitAdmin.with(admin -> admin.publish("t.plugin.capped", "again"));
        await().atMost(Duration.ofSeconds(20)).until(() -> RabbitAdmin.withResult(
                admin -> admin.depth("t.plugin.capped.dead")) == 1);
        assertEquals(List.of(1, 2, 3), handlers.cappedCounts, "three deliveries, the first included, then the dead letter");
        assertEquals(0L, (long) RabbitAdmin.withResult(admin -> admin.depth("t.plugin.capped")));
    }

    public static class Handlers {
        final List<String> log = new CopyOnWriteArrayList<>();
        final List<Integer> cappedCounts = new CopyOnWriteArrayList<>();

        @Subscriber(value = "t.plugin.capped", delay = Delay.PLUGIN, maxAttempts = 3, deadLetter = "t.plugin.capped.dead")
        Outcome capped(String body, Delivery delivery) {
            cappedCounts.add(delivery.attempt());
            return Outcome.retryAfter(Duration.ofMillis(100));
        }

        @Subscriber(value = "t.plugin", delay = Delay.PLUGIN, maxAttempts = 3, deadLetter = "t.plugin.dead")
        Outcome plugin(String body, Delivery delivery) {
            log.add(body + "|" + delivery.attempt());
            return delivery.attempt() == 1 ? Outcome.retryAfter(Duration.ofMillis(Long.parseLong(body.split(":")[1])))
                    : Outcome.ack();
        }
    }
}
