package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import jakarta.inject.Inject;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Broker;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A subscription or an injection point that names a broker the configuration does not have fails the build, naming
 * the method (or field), the name, and the brokers that are configured: a misspelt name must not wait for startup.
 */
class UnknownBrokerTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Sender.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.brokers.billing.url", "amqp://localhost/billing")
            .assertException(Failures.mentions(
                    "@Subscriber method org.acme.subscriber.test.build.UnknownBrokerTest$Handlers#invoice(java.lang.String) "
                            + "names broker 'biling', which is not configured: set quarkus.rabbitmq-subscriber.brokers."
                            + "\"biling\".url (or addresses); the configured ones are [billing]",
                    "org.acme.subscriber.test.build.UnknownBrokerTest$Sender#payments is annotated @Broker(\"payments\"), "
                            + "a broker that is not configured"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.unknown-broker.invoices", broker = "biling")
        void invoice(String invoice) {
        }

        @Subscriber(value = "b.unknown-broker.refunds", broker = "billing")
        void refund(String refund) {
        }
    }

    static class Sender {
        @Inject
        @Broker("payments")
        RabbitPublisher payments;
    }
}
