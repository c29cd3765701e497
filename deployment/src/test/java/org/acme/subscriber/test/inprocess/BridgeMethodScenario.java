package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.acme.subscriber.test.Scenarios;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;

/**
 * A subscriber implementing a generic interface: javac adds a bridge method carrying the same @Subscriber. It is
 * skipped, so the queue has one subscriber (not a build failure for two), and the payload is the real type.
 */
/** Run by {@link InProcessBasicsTest}, which calls each of its methods in one application with the others. */
interface BridgeMethodScenario {

    private InProcessBroker broker() {
        return Scenarios.bean(InProcessBroker.class);
    }

    private RefundHandler handler() {
        return Scenarios.bean(RefundHandler.class);
    }

    default void theBridgeIsNotASecondSubscriber() {
        broker().publish("bridged", new Refund(5));
        broker().awaitIdle();
        assertEquals(List.of(new Refund(5)), handler().handled);
        assertEquals(1, broker().queue("bridged").consumers());
    }

    public record Refund(long id) {
    }

    public interface Handles<T> {
        Outcome handle(T message);
    }

    public static class RefundHandler implements Handles<Refund> {
        final List<Refund> handled = new CopyOnWriteArrayList<>();

        @Override
        @Subscriber("bridged")
        public Outcome handle(Refund refund) {
            handled.add(refund);
            return Outcome.ack();
        }
    }
}
