package org.acme.subscriber.test.delays;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.acme.subscriber.test.RabbitAdmin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * delay = PLUGIN, enabled in config, on a RabbitMQ without the plugin (Debian's 3.10.8 here): startup is refused with
 * a message that names the plugin and the strategies that need none, and the connection is released.
 */
@DisabledIf(value = "org.acme.subscriber.test.RabbitAdmin#hasDelayedMessagePlugin", disabledReason = "this RabbitMQ has the delayed-message plugin: DelayedExchangeOnRabbitMqTest runs instead")
class DelayedExchangeWithoutPluginTest {

    static final String CONNECTION = "no-plugin-test-" + ProcessHandle.current().pid();

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, RabbitAdmin.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", RabbitAdmin.URL)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.delayed-exchange.enabled", "true")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.delayed-exchange.name", "t.noplugin.delayed")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .setAfterAllCustomizer(() -> RabbitAdmin.with(admin -> admin.delete("t.noplugin")))
            .assertException(
                    Failures.startupRefused(CONNECTION, "Cannot declare the delayed-message exchange 't.noplugin.delayed'",
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
