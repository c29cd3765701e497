package org.acme.subscriber.test.delays;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import org.acme.subscriber.test.RabbitAdmin;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** The delay scenarios on the local RabbitMQ 3.10.8, with delays of 300 ms. */
class DelayScenariosOnRabbitMqTest extends DelayScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(DelayScenariosOnRabbitMqTest::deleteQueues)
            .setAfterAllCustomizer(DelayScenariosOnRabbitMqTest::deleteQueues)
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class).addClass(RabbitAdmin.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", RabbitAdmin.URL);

    /** After the application stopped, so no consumer of it sees the queues go. */
    static void deleteQueues() {
        RabbitAdmin.with(admin -> admin.delete(QUEUES));
    }

    @Override
    void until(BooleanSupplier condition) {
        await().atMost(Duration.ofSeconds(20)).until(condition::getAsBoolean);
    }

    @Override
    void waitOut(Duration delay) {
        // The wall clock does it: until() waits.
    }

    @Override
    Duration shortDelay() {
        return Duration.ofMillis(300);
    }
}
