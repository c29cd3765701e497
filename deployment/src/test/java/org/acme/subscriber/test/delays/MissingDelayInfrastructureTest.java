package org.acme.subscriber.test.delays;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Map;

import org.acme.subscriber.test.Failures;
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
 * With declare-topology off, the work queues exist but their delay infrastructure does not: startup is refused, naming
 * each missing waiting queue and the delayed exchange, and the connection is released. On RabbitMQ 4.3 the PLUGIN
 * subscription is refused first: the plugin cannot run there.
 */
@Tag("wire")
class MissingDelayInfrastructureTest {

    static final String CONNECTION = "missing-delay-test-" + ProcessHandle.current().pid();
    static final String[] QUEUES = { "t.nodelay.ttl", "t.nodelay.per", "t.nodelay.plugin" };

    /** The work queues (declared by the test) and the waiting queues that must be missing. */
    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker
            .queues("t.nodelay.ttl", "t.nodelay.ttl.retry", "t.nodelay.per", "t.nodelay.per.retry.1s",
                    "t.nodelay.per.retry.5m", "t.nodelay.plugin")
            .before(admin -> {
                for (String queue : QUEUES) {
                    admin.declare(queue, Map.of());
                }
            }).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.declare-topology", "false")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.delayed-exchange.enabled", "true")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.delayed-exchange.name", "t.nodelay.delayed")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .assertException(WireBroker.isRabbitMq43()
                    // Where the plugin cannot run at all, that is said first, before anything is looked for.
                    ? Failures.startupRefused(CONNECTION,
                            "Queue 't.nodelay.plugin' sets delay = PLUGIN, which cannot work on RabbitMQ 4.3")
                    : Failures.startupRefused(CONNECTION, "declare-topology is false",
                            "queue 't.nodelay.ttl.retry' (waiting queue of 't.nodelay.ttl')",
                            "queue 't.nodelay.per.retry.1s' (waiting queue of 't.nodelay.per')",
                            "queue 't.nodelay.per.retry.5m' (waiting queue of 't.nodelay.per')",
                            "exchange 't.nodelay.delayed' (x-delayed-message, for delayed retries)"));

    @Test
    void startupFails() {
        fail("startup should have failed");
    }

    public static class Handlers {
        @Subscriber(value = "t.nodelay.ttl", delay = Delay.DLX_TTL)
        Outcome ttl(String body) {
            return Outcome.ack();
        }

        @Subscriber(value = "t.nodelay.per", delay = Delay.DLX_TTL_PER_DELAY, delays = { "1s", "5m" })
        Outcome perDelay(String body) {
            return Outcome.ack();
        }

        @Subscriber(value = "t.nodelay.plugin", delay = Delay.PLUGIN)
        Outcome plugin(String body) {
            return Outcome.ack();
        }
    }
}
