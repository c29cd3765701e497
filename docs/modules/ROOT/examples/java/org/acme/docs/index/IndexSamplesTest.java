package org.acme.docs.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The getting-started page: the first subscriber, strict decoding, the publisher, request and reply. */
class IndexSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Refunds.class, Refund.class, Processor.class,
                    StrictPayloads.class, RefundDesk.class, QuoteDesk.class, QuoteRequest.class, Quote.class,
                    Listeners.class))
            .withConfigurationResource("docs/index.properties")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    RefundDesk desk;

    @Inject
    QuoteDesk quotes;

    @Inject
    Listeners listeners;

    @Test
    void theFirstSubscriberTakesARefundAndAcksIt() {
        broker.publish("refunds", new Refund(1, "4242", 1250));
        broker.awaitIdle();
        assertEquals(0, broker.queue("refunds").depth());
        assertEquals(0, broker.queue("refunds").unacked());
    }

    @Test
    void strictPayloadsRefuseAStringWhereANumberBelongs() {
        broker.publish("strict-refunds", "{\"id\":2,\"card\":\"4242\",\"amountCents\":\"3\"}");
        broker.publish("strict-refunds", "{\"id\":3,\"card\":\"4242\",\"amountCents\":2.7}");
        broker.publish("strict-refunds", "{\"id\":4,\"card\":\"4242\"}");
        broker.publish("strict-refunds", "{\"id\":5,\"card\":\"4242\",\"amountCents\":3}");
        broker.awaitIdle();
        assertEquals(List.of(5L), listeners.strict, "only the exact payload is decoded; the others are rejected");
        assertEquals(0, broker.queue("strict-refunds").depth());
    }

    @Test
    void thePublisherSendsToAQueueAndToAnExchange() {
        desk.submit(new Refund(10, "4242", 100)).await().atMost(Duration.ofSeconds(10));
        desk.submitConfirmed(new Refund(11, "4242", 100)).await().atMost(Duration.ofSeconds(10));
        desk.audit(new Refund(12, "4242", 100));
        broker.awaitIdle();
        assertEquals(0, broker.queue("refunds").depth(), "the subscriber took both refunds");
        Delivery audited = listeners.audited.get(12L);
        assertEquals("audit", audited.exchange());
        assertEquals("refunds.eu", audited.routingKey());
        assertEquals("acme", audited.header("tenant"));
    }

    @Test
    void aWholeMessageCarriesItsProperties() {
        desk.submitWhole(new Refund(13, "4242", 100), "order-13");
        broker.awaitIdle();
        Delivery delivery = listeners.payments.get(13L);
        assertEquals("refund-13", delivery.messageId());
        assertEquals("order-13", delivery.correlationId());
        assertEquals("refund-results", delivery.replyTo());
        assertEquals("acme", delivery.header("tenant"));
        assertEquals(5, delivery.properties().priority().getAsInt());
        assertEquals(Duration.ofMinutes(5), delivery.properties().expiration().get());
        assertEquals(false, delivery.properties().persistent());
    }

    @Test
    void aRequestIsAnsweredThroughItsReplyTo() {
        assertEquals(new Quote("q-1", 42), quotes.ask("q-1").await().atMost(Duration.ofSeconds(10)));
    }

    /** What the test looks at: subscribers of its own, which give the publisher's exchanges their queues. */
    static class Listeners {
        final List<Long> strict = new CopyOnWriteArrayList<>();
        final Map<Long, Delivery> audited = new ConcurrentHashMap<>();
        final Map<Long, Delivery> payments = new ConcurrentHashMap<>();

        @Subscriber("strict-refunds")
        void strict(Refund refund) {
            strict.add(refund.id());
        }

        @Subscriber(value = "audit-refunds", bindings = @Binding(exchange = "audit", keys = "refunds.*"))
        void audit(Refund refund, Delivery delivery) {
            audited.put(refund.id(), delivery);
        }

        @Subscriber(value = "payment-refunds", bindings = @Binding(exchange = "payments", keys = "refund.*"))
        void payments(Refund refund, Delivery delivery) {
            payments.put(refund.id(), delivery);
        }
    }
}
