package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

class ConcurrencyGateTest {

    final List<Long> started = new ArrayList<>();

    @Test
    void atMostTheBoundRunAndTheOthersStartInArrivalOrderAsPlacesFreeUp() {
        ConcurrencyGate gate = new ConcurrencyGate(2, (context, delivery) -> started.add(delivery.deliveryTag()));
        for (long tag = 1; tag <= 5; tag++) {
            gate.arrived(null, delivery(tag));
        }
        assertEquals(List.of(1L, 2L), started);
        assertEquals(3, gate.waiting());
        gate.released();
        assertEquals(List.of(1L, 2L, 3L), started);
        gate.released();
        gate.released();
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), started);
        assertEquals(2, gate.running());
    }

    @Test
    void withoutABoundEveryDeliveryStartsOnArrival() {
        ConcurrencyGate gate = new ConcurrencyGate(0, (context, delivery) -> started.add(delivery.deliveryTag()));
        for (long tag = 1; tag <= 300; tag++) {
            gate.arrived(null, delivery(tag));
        }
        assertEquals(300, started.size());
        assertEquals(300, gate.running());
    }

    @Test
    void deliveriesThatSettleAsTheyStartDoNotDeepenTheStack() {
        ConcurrencyGate[] gate = new ConcurrencyGate[1];
        // Each delivery settles while it starts: a recursive release would overflow the stack long before 100,000.
        gate[0] = new ConcurrencyGate(1, (context, delivery) -> {
            started.add(delivery.deliveryTag());
            if (delivery.deliveryTag() > 1) {
                gate[0].released();
            }
        });
        for (long tag = 1; tag <= 100_000; tag++) {
            gate[0].arrived(null, delivery(tag));
        }
        assertEquals(1, started.size(), "the first holds the only place");
        gate[0].released();
        assertEquals(100_000, started.size());
        assertEquals(0, gate[0].running());
        assertEquals(0, gate[0].waiting());
    }

    private static InboundDelivery delivery(long tag) {
        return new InboundDelivery("q", new Envelope(tag, false, "", "q"), new AMQP.BasicProperties(), new byte[0],
                "x-retry-count");
    }
}
