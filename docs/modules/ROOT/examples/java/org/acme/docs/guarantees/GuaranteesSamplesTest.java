package org.acme.docs.guarantees;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import jakarta.inject.Inject;

import org.acme.docs.security.ConfigSamples;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.config.SmallRyeConfig;

/**
 * The Guarantees page's samples: a refund delivered twice is recorded once by the idempotent handler (on the
 * in-process broker), and the cluster's connection settings are real keys of the extension with the values the page
 * gives.
 */
class GuaranteesSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Refunds.class, Refund.class, RefundLedger.class,
                    ConfigSamples.class)
                    .addAsResource("docs/guarantees.properties"))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    Refunds refunds;

    @Inject
    RefundLedger ledger;

    @Test
    void aRefundDeliveredTwiceIsRecordedOnce() {
        Refund refund = new Refund("r-1", "4111-1111", 2_500);
        broker.publish("refunds", refund);
        broker.publish("refunds", refund); // the same refund again, as a publisher's retry sends it
        broker.awaitIdle();
        assertEquals(2, refunds.handled());
        assertEquals(List.of(refund), ledger.recorded());
    }

    @Test
    void theClusterSettingsAreTheExtensionsKeys() {
        SmallRyeConfig config = ConfigSamples.load("docs/guarantees.properties");
        SubscriberConfig subscriber = config.getConfigMapping(SubscriberConfig.class);
        assertEquals(List.of("rabbit-1.example.com:5672", "rabbit-2.example.com:5672", "rabbit-3.example.com:5672"),
                subscriber.defaultBroker().addresses().orElseThrow());
        assertEquals("amqp://orders-service@rabbit-1.example.com:5672/orders", subscriber.defaultBroker().url().orElseThrow());
    }
}
