package org.acme.subscriber.test.brokers;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkiverse.rabbitmq.subscriber.Broker;
import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Two brokers served by the in-process broker: one server per name, each with its own queues, on one clock (a retry
 * held in the service on the billing broker waits until the test advances it).
 */
class NamedBrokersInProcessTest extends BrokerScenarios {

    static final String LEDGER = "nb.ledger";
    static final String PAYMENTS = "nb.payments";
    static final String EVENTS = "nb.events";
    static final String ACCOUNTS = "nb.accounts";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(BillingHandlers.class, Ledger.class))
            .setForcedDependencies(List.of(Dependency.of("io.quarkus", "quarkus-micrometer-deployment",
                    io.quarkus.builder.Version.getVersion())))
            .overrideConfigKey("quarkus.micrometer.binder-enabled-default", "false")
            .overrideConfigKey("quarkus.micrometer.registry-enabled-default", "false")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.in-process.server-version", "4")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.brokers.billing.url", "amqp://localhost/billing");

    @Inject
    InProcessBroker inProcess;

    @Inject
    Ledger ledger;

    @Inject
    DeadLetters deadLetters;

    @Inject
    MeterRegistry registry;

    @BeforeAll
    static void simpleRegistry() {
        // With no registry enabled the global composite records nothing: give it one that keeps values in memory.
        Metrics.globalRegistry.add(new SimpleMeterRegistry());
    }

    @Test
    void aStreamAndPartitionsOnANamedBroker() {
        billing.sendConfirmed(OutgoingMessage.toQueue(EVENTS).payload("e-1")).await().atMost(WAIT);
        billing.sendConfirmed(billing.toPartition(ACCOUNTS, "account-7").payload("a-1")).await().atMost(WAIT);
        inProcess.awaitIdle();
        assertEquals(List.of("e-1"), ledger.events);
        assertEquals(1, ledger.accounts.size(), ledger.accounts.toString());
        assertEquals(true, ledger.accounts.get(0).startsWith(ACCOUNTS + "."), ledger.accounts.toString());
    }

    @Test
    void aSubscriptionsMetersCarryItsBroker() {
        billing.sendConfirmed(OutgoingMessage.toQueue(BillingHandlers.INVOICES).payload("metered")).await()
                .atMost(WAIT);
        inProcess.awaitIdle();
        await().atMost(WAIT).until(() -> registry.find("quarkus.rabbitmq-subscriber.outcomes")
                .tags("queue", BillingHandlers.INVOICES, "outcome", "ack", "broker", BillingHandlers.BILLING)
                .counter() != null
                && registry.get("quarkus.rabbitmq-subscriber.outcomes").tags("queue", BillingHandlers.INVOICES,
                        "outcome", "ack", "broker", BillingHandlers.BILLING).counter().count() >= 1);
        assertEquals(Broker.DEFAULT, registry.get("quarkus.rabbitmq-subscriber.subscriber.paused")
                .tag("queue", BillingHandlers.ORDERS).gauge().getId().getTag("broker"));
    }

    @Override
    void settle() {
        inProcess.awaitIdle();
    }

    @Test
    void eachBrokerHasItsOwnQueues() {
        InProcessBroker billingBroker = inProcess.broker(BillingHandlers.BILLING);
        assertEquals(1, billingBroker.queue(BillingHandlers.INVOICES).consumers());
        assertEquals(1, inProcess.queue(BillingHandlers.ORDERS).consumers());
        assertThrows(IllegalStateException.class, () -> inProcess.queue(BillingHandlers.INVOICES));
        assertThrows(IllegalStateException.class, () -> billingBroker.queue(BillingHandlers.ORDERS));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> inProcess.broker("biling"));
        assertEquals(true, unknown.getMessage().contains("'biling'"), unknown.getMessage());
    }

    @Test
    void oneClockForEveryBroker() {
        inProcess.broker(BillingHandlers.BILLING).publish(LEDGER, "entry-1");
        inProcess.awaitIdle();
        assertEquals(List.of(1), ledger.attempts);
        inProcess.advance(Duration.ofSeconds(29));
        assertEquals(List.of(1), ledger.attempts);
        inProcess.advance(Duration.ofSeconds(1));
        await().atMost(WAIT).until(() -> ledger.attempts.equals(List.of(1, 2)));
    }

    @Test
    void aNamedBrokersDeadLettersAreReadAndReplayedThere() {
        inProcess.broker(BillingHandlers.BILLING).publish(PAYMENTS, "p-1");
        inProcess.awaitIdle();
        List<DeadLetter> dead = deadLetters.peek(PAYMENTS + ".dead", 10);
        assertEquals(1, dead.size());
        assertEquals("no such account", dead.get(0).reason());
        assertEquals(1, deadLetters.replay(PAYMENTS + ".dead", 10));
        inProcess.awaitIdle();
        assertEquals(List.of("p-1", "p-1"), ledger.payments);
        assertEquals(0, inProcess.broker(BillingHandlers.BILLING).queue(PAYMENTS + ".dead").depth());
    }

    /** On the billing broker: retried 30 s later, held in the service on the runtime's (the brokers' one) clock. */
    @Singleton
    public static class Ledger {
        final List<Integer> attempts = new CopyOnWriteArrayList<>();
        final List<String> payments = new CopyOnWriteArrayList<>();
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<String> accounts = new CopyOnWriteArrayList<>();

        @Subscriber(value = EVENTS, broker = BillingHandlers.BILLING, type = QueueType.STREAM, offset = "first")
        void event(String event) {
            events.add(event);
        }

        @Subscriber(value = ACCOUNTS, broker = BillingHandlers.BILLING, partitions = 2)
        void account(String entry, Delivery delivery) {
            accounts.add(delivery.queue() + ":" + entry);
        }

        /** Dead-lettered the first time, acked once replayed. */
        @Subscriber(value = PAYMENTS, broker = BillingHandlers.BILLING, maxAttempts = 3, deadLetter = PAYMENTS + ".dead")
        Outcome payment(String payment) {
            payments.add(payment);
            return payments.size() == 1 ? Outcome.deadLetter("no such account") : Outcome.ack();
        }

        @Subscriber(value = LEDGER, broker = BillingHandlers.BILLING)
        Outcome entry(String entry, Delivery delivery) {
            attempts.add(delivery.attempt());
            return delivery.attempt() == 1 ? Outcome.retryAfter(Duration.ofSeconds(30)) : Outcome.ack();
        }
    }
}
