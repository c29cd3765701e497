package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;

/** The broker-facing side of a subscriber: whatever goes wrong taking a delivery is its own to report, never thrown. */
class SubscriberConsumerTest {

    @Test
    void aDeliveryThatCannotBeTakenIsReportedToTheSubscriberNotThrownAtTheBroker() {
        List<String> lost = new ArrayList<>();
        InFlight inFlight = new InFlight();
        SubscriberConsumer consumer = new SubscriberConsumer("q", null, inFlight, "x-retry-count", lost::add,
                () -> {
                    throw new IllegalStateException("the reload scan broke");
                });
        assertDoesNotThrow(() -> consumer.delivered("tag", new Envelope(1, false, "", "q"), new AMQP.BasicProperties(),
                new byte[0]));
        assertEquals(List.of("taking a delivery failed (java.lang.IllegalStateException: the reload scan broke)"), lost);
        assertEquals(0, inFlight.count(), "nothing is left in flight for a stop to wait for");
    }
}
