package org.acme.subscriber.test.scenarios;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import org.acme.subscriber.test.RabbitAdmin;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** The retry scenarios on the local RabbitMQ 3.10.8. */
class RetryScenariosOnRabbitMqTest extends RetryScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setAfterAllCustomizer(RetryScenariosOnRabbitMqTest::deleteQueues)
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION).addClass(RabbitAdmin.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", RabbitAdmin.URL)
            .setBeforeAllCustomizer(RetryScenariosOnRabbitMqTest::deleteQueues);

    /** After the application stopped, so no consumer of it sees the queues go. */
    static void deleteQueues() {
        RabbitAdmin.with(admin -> admin.delete(QUEUES));
    }

    @Override
    void until(BooleanSupplier condition) {
        await().atMost(Duration.ofSeconds(20)).until(condition::getAsBoolean);
    }
}
