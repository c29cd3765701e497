package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.acme.subscriber.test.Scenarios;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;

/** The test API's publish through an exchange: routed by the exchange's bindings; a missing exchange fails the call. */
/** Run by {@link InProcessBasicsTest}, which calls each of its methods in one application with the others. */
interface ExchangePublishScenario {

    private InProcessBroker broker() {
        return Scenarios.bean(InProcessBroker.class);
    }

    private BrokerSession session() {
        return Scenarios.bean(BrokerSession.class);
    }

    private Handler handler() {
        return Scenarios.bean(Handler.class);
    }

    default void aTopicExchangeRoutesByBindingAndDropsWhatNoBindingMatches() throws Exception {
        try (BrokerChannel channel = session().connection().createChannel()) {
            channel.declareExchange("xp.events", "topic", false, false, Map.of());
            channel.bindQueue("xp.refunds", "xp.events", "refunds.*", Map.of());
        }
        broker().publish("xp.events", "refunds.eu", "routed", Map.of("tenant", "acme"));
        broker().publish("xp.events", "payouts.eu", "dropped", Map.of());
        broker().awaitIdle();
        // The other test's message may be there too: the handler is the application's, shared by both.
        assertTrue(handler().received.contains("routed tenant=acme"), handler().received::toString);
        assertFalse(handler().received.stream().anyMatch(body -> body.startsWith("dropped")), handler().received::toString);
    }

    default void aMissingExchangeFailsTheCallAndTheNextPublishGoesThrough() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> broker().publish("xp.missing", "k", "lost", Map.of()));
        assertTrue(refused.getMessage().contains("no exchange 'xp.missing'"), refused.getMessage());
        broker().publish("xp.refunds", "direct", Map.of());
        broker().awaitIdle();
        assertTrue(handler().received.contains("direct tenant=null"), handler().received::toString);
    }

    public static class Handler {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Subscriber("xp.refunds")
        void handle(String body, Delivery delivery) {
            Object tenant = delivery.headers().get("tenant");
            received.add(body + " tenant=" + (tenant == null ? null : tenant.toString()));
        }
    }
}
