package org.acme.docs.retries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The retries page: caps on a classic and a quorum queue, the dead-letter queue's reader, a back-off, the per-queue
 * overrides of retries.properties, and replaying dead letters.
 */
class RetriesSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Refunds.class, Refund.class, Payout.class, Processor.class,
                    RefundReview.class, Payments.class, Payment.class, Gateway.class, Orders.class, Order.class,
                    Warehouse.class, DeadOrders.class))
            .withConfigurationResource("docs/retries.properties")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    RefundReview review;

    @Inject
    Gateway gateway;

    @Inject
    Warehouse warehouse;

    @Inject
    DeadOrders deadOrders;

    @Test
    void aRefundThatKeepsFailingReachesItsReviewerAfterFiveDeliveries() {
        broker.publish("refunds", new Refund(1, "0000", 500));
        broker.awaitIdle();
        assertEquals(List.of(new RefundReview.Review(1, 5)), review.reviews());
        assertEquals(0, broker.queue("refunds").depth());
        assertEquals(0, broker.queue("refunds.dead").depth(), "the reader took it");
    }

    @Test
    void aQuorumQueueCountsItselfAndItsLimitDeadLetters() {
        assertEquals(4L, ((Number) broker.queue("payouts").arguments().get("x-delivery-limit")).longValue());
        broker.publish("payouts", new Payout(2, "0000-1", 500));
        broker.awaitIdle();
        List<InProcessBroker.QueuedMessage> dead = broker.messages("payouts.dead");
        assertEquals(1, dead.size());
        assertTrue(String.valueOf(dead.get(0).header("x-death")).contains("delivery_limit"),
                String.valueOf(dead.get(0).headers()));
    }

    @Test
    void aBackOffSpacesTheAttemptsOutThenTheCapDeadLetters() {
        broker.publish("payments", new Payment("p-1", 900));
        broker.awaitIdle();
        assertEquals(1, gateway.charges().size());
        long[] waits = { 1, 2, 4, 8, 16 };
        for (int i = 0; i < waits.length; i++) {
            broker.advance(Duration.ofSeconds(waits[i]).minusMillis(1));
            broker.awaitIdle();
            assertEquals(i + 1, gateway.charges().size(), "not before " + waits[i] + " s");
            broker.advance(Duration.ofMillis(1));
            broker.awaitIdle();
            assertEquals(i + 2, gateway.charges().size(), "after " + waits[i] + " s");
        }
        List<InProcessBroker.QueuedMessage> dead = broker.messages("payments.dead");
        assertEquals(1, dead.size());
        assertEquals(6, ((Number) dead.get(0).header(Delivery.RETRY_COUNT_HEADER)).intValue());
        assertEquals(IllegalStateException.class.getName(), dead.get(0).header(Delivery.EXCEPTION_TYPE_HEADER));
    }

    @Test
    void theConfigurationRaisesTheCapAndDeadLettersCanBeReplayedOnceTheCauseIsFixed() {
        broker.publish("orders", new Order("o-1"));
        broker.awaitIdle();
        List<DeadLetter> waiting = deadOrders.waiting();
        assertEquals(1, waiting.size());
        assertEquals(8, waiting.get(0).attempts(), "8 from retries.properties, not the annotation's 3");
        assertEquals("orders", waiting.get(0).sourceQueue());

        warehouse.fix();
        assertEquals(1, deadOrders.replay());
        broker.awaitIdle();
        assertEquals(List.of("o-1"), warehouse.reserved());
        assertEquals(0, broker.queue("orders.dead").depth());
    }
}
