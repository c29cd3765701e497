package org.acme.docs.brokers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.acme.docs.security.ConfigSamples;

import io.quarkiverse.rabbitmq.subscriber.Broker;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.BrokerSettings;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberBuildTimeConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.smallrye.config.SmallRyeConfig;
import io.quarkus.test.QuarkusUnitTest;

/** The Several brokers page: orders on the default broker, invoices on the billing broker, each served apart. */
class BrokersSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class, Invoices.class, ConfigSamples.class)
                    .addAsResource("docs/brokers.properties"))
            .withConfigurationResource("docs/brokers-in-process.properties");

    @Inject
    InProcessBroker broker;

    @Inject
    Orders orders;

    @Inject
    Invoices invoices;

    @Test
    void anOrderIsShippedHereAndInvoicedOnTheBillingBroker() {
        // tag::test[]
        broker.publish("orders", "o-1");
        broker.awaitIdle(); // every broker's deliveries, settled
        assertEquals(List.of("o-1"), orders.shipped());
        assertEquals(List.of("o-1"), invoices.invoiced());
        assertEquals(1, broker.broker("billing").queue("invoices").consumers());
        // end::test[]
        assertThrows(IllegalStateException.class, () -> broker.queue("invoices"), "no such queue on the default broker");
    }

    @Test
    void theBillingBrokersSettingsAreTheExtensionsKeys() {
        SmallRyeConfig config = ConfigSamples.load("docs/brokers.properties");
        BrokerSettings billing = config.getConfigMapping(SubscriberConfig.class).brokers().get("billing");
        assertEquals("amqps://orders-service@billing.example.com:5671/billing", billing.url().orElseThrow());
        assertEquals("billing-rabbitmq", billing.credentialsProvider().orElseThrow());
        assertEquals(java.time.Duration.ofSeconds(30), billing.heartbeat());
        assertEquals(false, config.getConfigMapping(SubscriberBuildTimeConfig.class).declareTopology("billing"));
        assertEquals(true, config.getConfigMapping(SubscriberBuildTimeConfig.class).declareTopology(Broker.DEFAULT));
    }

    @Test
    void theBillingPublisherPublishesOnTheBillingBroker() {
        invoices.credit("o-2");
        broker.awaitIdle();
        assertEquals(true, invoices.invoiced().contains("credit o-2"));
    }
}
