package org.acme.subscriber.test.topology;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Queue, dead-letter queue, exchange and key names from the configuration, resolved at startup: this run's names are
 * random, so two runs (or two CI jobs) on one broker never meet. An expression's default applies where the property
 * is not set.
 */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class NamesFromConfigurationTest extends BrokerScenarios {

    /** One per JVM: the test class is loaded twice (by JUnit and by the application's class loader). */
    static final String RUN = (String) System.getProperties().computeIfAbsent("t.names.run",
            key -> java.util.UUID.randomUUID().toString().substring(0, 8));
    static final String QUEUE = "t.names.orders." + RUN;
    static final String EXCHANGE = "t.names.shop." + RUN;

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE, QUEUE + ".dead").exchanges(EXCHANGE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("orders.queue", QUEUE)
            .overrideConfigKey("orders.exchange", EXCHANGE);

    @Inject
    Handlers handlers;

    @Inject
    SubscriberStatus status;

    @Test
    void theResolvedNamesAreDeclaredBoundAndConsumed() throws Exception {
        TopologyPlan plan = status.topology();
        assertEquals(List.of(QUEUE, QUEUE + ".dead"), plan.queues.stream().map(queue -> queue.name).toList());
        assertEquals(List.of(EXCHANGE), plan.exchanges.stream().map(exchange -> exchange.name).toList());
        assertEquals(List.of("order.created"), plan.bindings.stream().map(binding -> binding.routingKey).toList());
        try (BrokerChannel channel = session.connection().createChannel()) {
            channel.publish(EXCHANGE, "order.created", false, new AMQP.BasicProperties.Builder().messageId("o-1")
                    .build(), "order-1".getBytes(StandardCharsets.UTF_8));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> depth(QUEUE + ".dead") == 1);
        assertEquals(List.of(QUEUE + " " + EXCHANGE + " order.created", QUEUE + " " + EXCHANGE + " order.created"),
                handlers.seen());
        assertTrue(drain(QUEUE + ".dead").size() == 1);
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> seen = new CopyOnWriteArrayList<>();

        List<String> seen() {
            return seen;
        }

        @Subscriber(value = "${orders.queue}", maxAttempts = 2, deadLetter = "${orders.queue}.dead", bindings = @Binding(exchange = "${orders.exchange:t.names.unused}", keys = "${orders.key:order.created}"))
        Outcome order(String body, Delivery delivery) {
            seen.add(delivery.queue() + " " + delivery.exchange() + " " + delivery.routingKey());
            return Outcome.retry();
        }
    }
}
