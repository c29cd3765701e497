package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.acme.subscriber.test.Scenarios;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;

/**
 * On the in-process broker with its paused clock, a 30-second retryAfter takes no time: the copy comes back when the
 * test advances the clock by 30 seconds, and not a millisecond before.
 */
/** Run by {@link InProcessBasicsTest}, which calls each of its methods in one application with the others. */
interface InProcessRetryAfterScenario {

    private InProcessBroker broker() {
        return Scenarios.bean(InProcessBroker.class);
    }

    private Handlers handlers() {
        return Scenarios.bean(Handlers.class);
    }

    default void aBusyRefundComesBackAfterThirtySecondsAndNotBefore() {
        long started = System.nanoTime();
        broker().publish("refunds", new Refund(1, "busy-once"));
        broker().awaitIdle();
        assertEquals(List.of("1:1"), handlers().attempts);
        assertEquals(0, broker().queue("refunds").depth(), "the copy waits in the service, not in the queue");

        broker().advance(Duration.ofSeconds(30).minusMillis(1));
        assertEquals(List.of("1:1"), handlers().attempts, "not before 30 seconds");

        broker().advance(Duration.ofMillis(1));
        assertEquals(List.of("1:1", "1:2"), handlers().attempts, "the copy carries the retry count raised by one");
        assertEquals(0, broker().queue("refunds").depth());
        assertTrue(System.nanoTime() - started < Duration.ofSeconds(10).toNanos(), "virtual time takes no real time");
    }

    default void queueViewShowsTheDeclaredArguments() {
        InProcessBroker.QueueView view = broker().queue("payouts");
        assertEquals("quorum", view.arguments().get("x-queue-type").toString());
        assertEquals(3, ((Number) view.arguments().get("x-delivery-limit")).intValue());
        assertEquals(1, view.consumers());
    }

    default void aQuorumQueueDeadLettersNothingWithoutARouteButStopsRedelivering() {
        broker().publish("payouts", "always-unavailable");
        broker().awaitIdle();
        // x-delivery-limit 3: the first delivery and three returns, then the queue drops it (it has no route).
        assertEquals(4, handlers().payoutDeliveries.size());
        assertEquals(List.of("none", "1", "2", "3"), handlers().payoutDeliveries);
        assertEquals(0, broker().queue("payouts").depth());
    }

    public record Refund(long id, String card) {
    }

    public static class Handlers {
        final List<String> attempts = new CopyOnWriteArrayList<>();
        final List<String> payoutDeliveries = new CopyOnWriteArrayList<>();

        @Subscriber("refunds")
        Outcome process(Refund refund, Delivery delivery) {
            attempts.add(refund.id() + ":" + delivery.attempt());
            return delivery.attempt() == 1 ? Outcome.retryAfter(Duration.ofSeconds(30)) : Outcome.ack();
        }

        @Subscriber(value = "payouts", type = QueueType.QUORUM, deliveryLimit = 3)
        Outcome payout(String body, Delivery delivery) {
            payoutDeliveries.add(delivery.redeliveryCount().isPresent()
                    ? String.valueOf(delivery.redeliveryCount().getAsInt())
                    : "none");
            return Outcome.retry();
        }
    }
}
