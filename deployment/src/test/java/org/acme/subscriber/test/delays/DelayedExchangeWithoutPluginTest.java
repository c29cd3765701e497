package org.acme.subscriber.test.delays;

import static org.junit.jupiter.api.Assertions.fail;

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
 * delay = PLUGIN, enabled in config, on a RabbitMQ without the plugin (Debian's 3.10.8 here): startup is refused with
 * a message that names the plugin and the strategies that need none, and the connection is released. On RabbitMQ 4.3,
 * where the plugin cannot run at all, it is refused before anything is declared, naming the version and the
 * alternatives (waiting queues, the server's delayed retry). Skipped on a broker that has the plugin:
 * DelayedExchangeOnRabbitMqTest runs there instead.
 */
@Tag("wire")
class DelayedExchangeWithoutPluginTest {

    static final String CONNECTION = "no-plugin-test-" + ProcessHandle.current().pid();

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.noplugin").needsNoDelayedMessagePlugin().givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.delayed-exchange.enabled", "true")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.delayed-exchange.name", "t.noplugin.delayed")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .assertException(WireBroker.isRabbitMq43()
                    ? Failures.startupRefused(CONNECTION, "Queue 't.noplugin' sets delay = PLUGIN, which cannot work on "
                            + "RabbitMQ 4.3", "RabbitMQ 4.3 removed",
                            "Use delay = DLX_TTL or DLX_TTL_PER_DELAY (waiting queues, no plugin)",
                            "retryDelay = @RetryDelay(min = \"1s\")")
                    : Failures.startupRefused(CONNECTION, "Cannot declare the delayed-message exchange 't.noplugin.delayed'",
                            "The rabbitmq_delayed_message_exchange plugin is not enabled on this broker",
                            "use delay = DLX_TTL or DLX_TTL_PER_DELAY"));

    @Test
    void startupFails() {
        fail("startup should have failed");
    }

    public static class Handlers {
        @Subscriber(value = "t.noplugin", delay = Delay.PLUGIN)
        Outcome plugin(String body) {
            return Outcome.ack();
        }
    }
}
