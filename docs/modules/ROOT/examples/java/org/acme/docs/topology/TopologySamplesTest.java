package org.acme.docs.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The topology page: bindings, queue arguments from the annotation and the configuration, names from configuration. */
class TopologySamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Refunds.class, Refund.class, Payouts.class, Payout.class,
                    Orders.class, Order.class))
            .withConfigurationResource("docs/topology.properties")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            // x-consumer-timeout needs RabbitMQ 4.3 (an older broker would ignore it, so startup refuses it there)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.in-process.server-version", "4.3");

    @Inject
    InProcessBroker broker;

    @Inject
    Refunds refunds;

    @Inject
    Orders orders;

    @Test
    void theTopicBindingTakesWhatItsPatternsMatch() {
        // tag::publish[]
        broker.publish("payments", "refund.requested", new Refund(1, "4242", 1250), Map.of());
        // end::publish[]
        broker.publish("payments", "chargeback.card.eu", new Refund(2, "4242", 990), Map.of());
        broker.publish("payments", "payment.captured", new Refund(3, "4242", 990), Map.of());
        broker.awaitIdle();
        assertEquals(Set.of("refund.requested", "chargeback.card.eu"), Set.copyOf(refunds.routingKeys()));
    }

    @Test
    void theQueueHasTheAnnotationsArgumentsAndTheConfigurationWins() {
        Map<String, Object> arguments = broker.queue("refunds").arguments();
        assertEquals(50_000L, ((Number) arguments.get("x-max-length")).longValue());
        assertEquals("reject-publish", String.valueOf(arguments.get("x-overflow")));
    }

    @Test
    void namesComeFromTheConfigurationOrTheirDefaults() {
        broker.publish("shop", "order.created", new Order("o-1"), Map.of());
        broker.awaitIdle();
        assertEquals(List.of("o-1"), orders.placed());
        assertEquals(0, broker.queue("orders-eu").depth());
        assertEquals(0, broker.queue("orders-eu.dead").depth());
    }
}
