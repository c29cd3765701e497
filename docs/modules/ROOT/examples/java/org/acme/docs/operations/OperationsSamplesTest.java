package org.acme.docs.operations;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriptions;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker.QueuedMessage;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The Operations page's samples on the in-process broker (its clock paused), with the page's kill switch
 * ({@code docs/operations.properties}): an outage trips the switch and raises one alert instead of spending every
 * message's attempts; a pause holds messages in RabbitMQ until resumed; a payment of a closed account goes to the
 * dead-letter queue at once with its reason and is replayed once the account is open again; a declined payment goes
 * there at once with its exception. In this order: each leaves the subscriber consuming, its failures counted out.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperationsSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Payments.class, Payment.class, PaymentGateway.class,
                    DeclinedException.class, Alerts.class, PaymentsOperations.class))
            .withConfigurationResource("docs/operations.properties")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    PaymentGateway gateway;

    @Inject
    Alerts alerts;

    @Inject
    PaymentsOperations operations;

    @Inject
    Subscriptions subscriptions;

    // tag::kill-switch[]
    @Test
    @Order(1)
    void anOutageTripsTheKillSwitchInsteadOfSpendingEveryMessagesAttempts() {
        gateway.down(true);
        for (int i = 1; i <= 5; i++) {
            broker.publish("payments", new Payment("k-" + i, "acct-1", 100));
        }
        // The switch pauses the subscriber on its own thread: settled once the broker is idle and the pause landed.
        await().untilAsserted(() -> {
            broker.awaitIdle();
            assertEquals(Subscriptions.State.PAUSED, subscriptions.state("payments"));
        });
        await().until(() -> !alerts.raised().isEmpty());
        String alert = alerts.raised().get(0);
        assertTrue(alert.startsWith("payments: ") && alert.contains(" failures in a row, paused for PT1M"), alert);

        gateway.down(false);
        broker.advance(Duration.ofSeconds(60));
        await().until(() -> {
            broker.awaitIdle();
            return gateway.charged().size() == 5;
        });
        assertEquals(0, broker.queue("payments.dead").depth(), "no payment used up its five attempts");
        assertEquals(Subscriptions.State.CONSUMING, subscriptions.state("payments"));
    }
    // end::kill-switch[]

    @Test
    @Order(2)
    void aPausedSubscriberLeavesItsMessagesInRabbitMqUntilResumed() {
        operations.holdPayments();
        assertTrue(operations.paymentsHeld(), "PAUSED as soon as pause returns");
        await().until(() -> broker.queue("payments").consumers() == 0);
        broker.publish("payments", new Payment("h-1", "acct-1", 100));
        broker.awaitIdle();
        assertEquals(1, broker.queue("payments").depth());
        assertFalse(gateway.charged().contains("h-1"));

        operations.releasePayments();
        await().until(() -> {
            broker.awaitIdle();
            return gateway.charged().contains("h-1");
        });
        assertFalse(operations.paymentsHeld());
    }

    @Test
    @Order(3)
    void aClosedAccountsPaymentIsDeadLetteredAtOnceThenReplayedOnceItIsOpenAgain() {
        gateway.close("acct-closed");
        broker.publish("payments", new Payment("c-1", "acct-closed", 100));
        broker.awaitIdle();
        List<QueuedMessage> dead = broker.messages("payments.dead");
        assertEquals(1, dead.size());
        assertEquals("account closed", String.valueOf(dead.get(0).header(Outcome.DEAD_LETTER_REASON_HEADER)));
        assertEquals(0, gateway.attempts("c-1"), "never charged");

        gateway.reopen("acct-closed");
        assertEquals(1, operations.replayPayments());
        await().until(() -> {
            broker.awaitIdle();
            return gateway.charged().contains("c-1");
        });
        assertEquals(0, broker.queue("payments.dead").depth());
    }

    @Test
    @Order(4)
    void aDeclinedPaymentGoesToTheDeadLetterQueueAtOnceWithItsException() {
        broker.publish("payments", new Payment("d-1", "acct-1", PaymentGateway.LIMIT_CENTS + 1));
        broker.awaitIdle();
        List<QueuedMessage> dead = broker.messages("payments.dead");
        assertEquals(1, dead.size());
        assertTrue(dead.get(0).bodyAsString().contains("\"d-1\""), dead.get(0).bodyAsString());
        assertEquals(DeclinedException.class.getName(), String.valueOf(dead.get(0).header("x-exception-type")));
        assertEquals(1, gateway.attempts("d-1"), "not retried: four attempts left unused");
    }
}
