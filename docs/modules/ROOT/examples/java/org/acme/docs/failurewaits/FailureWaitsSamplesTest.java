package org.acme.docs.failurewaits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The "Choosing how a failure waits" page's samples on the in-process broker following RabbitMQ 4.3, its clock
 * paused: a failed transfer waits in the waiting queue of its back-off's delay, one after the other; a failed
 * settlement waits in its own quorum queue, held back by the server, with nothing copied.
 */
class FailureWaitsSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Payouts.class, Payout.class, Bank.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.in-process.server-version", "4.3");

    @Inject
    InProcessBroker broker;

    @Inject
    Bank bank;

    @AfterEach
    void bankUp() {
        bank.down(false);
    }

    // tag::waiting-queues[]
    @Test
    void aFailedTransferWaitsInTheWaitingQueueOfEachBackOffDelay() {
        bank.down(true);
        broker.publish("payouts", new Payout("p-1", 100));
        broker.awaitIdle();
        assertEquals(1, bank.calls("transfer p-1"));
        assertEquals(1, broker.messages("payouts.retry.1s").size(), "the copy waits in RabbitMQ");
        assertEquals(2, ((Number) broker.messages("payouts.retry.1s").get(0).header("x-retry-count")).intValue());

        broker.advance(Duration.ofSeconds(1));
        broker.awaitIdle();
        assertEquals(2, bank.calls("transfer p-1"));
        assertEquals(1, broker.messages("payouts.retry.2s").size());

        broker.advance(Duration.ofSeconds(2));
        broker.awaitIdle();
        assertEquals(3, bank.calls("transfer p-1"));
        assertEquals(1, broker.messages("payouts.retry.4s").size());

        bank.down(false);
        broker.advance(Duration.ofSeconds(4));
        broker.awaitIdle();
        assertEquals(4, bank.calls("transfer p-1"));
        assertTrue(bank.done().contains("transfer p-1"));
        assertEquals(0, broker.queue("payouts.dead").depth());
    }
    // end::waiting-queues[]

    @Test
    void aFailedSettlementWaitsInItsOwnQuorumQueue() {
        Map<String, Object> arguments = broker.queue("settlements").arguments();
        assertEquals("failed", String.valueOf(arguments.get("x-delayed-retry-type")));
        assertEquals(1_000L, ((Number) arguments.get("x-delayed-retry-min")).longValue());

        bank.down(true);
        broker.publish("settlements", new Payout("s-1", 100));
        broker.awaitIdle();
        assertEquals(1, bank.calls("settle s-1"));
        broker.advance(Duration.ofMillis(999));
        assertEquals(1, bank.calls("settle s-1"), "the server holds it for 1 s");
        broker.advance(Duration.ofMillis(1));
        broker.awaitIdle();
        assertEquals(2, bank.calls("settle s-1"));

        bank.down(false);
        broker.advance(Duration.ofSeconds(2));
        broker.awaitIdle();
        assertEquals(3, bank.calls("settle s-1"));
        assertTrue(bank.done().contains("settle s-1"));
        assertEquals(List.of(), broker.messages("settlements.dead"));
    }
}
