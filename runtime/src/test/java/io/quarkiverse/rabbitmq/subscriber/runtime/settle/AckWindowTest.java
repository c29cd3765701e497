package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Which ack frames a window sends, and that each delivery is counted settled exactly once. */
class AckWindowTest {

    private final List<String> frames = new ArrayList<>();
    private int settled;
    private final AckWindow.AckSender sender = (tag, multiple, count) -> {
        frames.add((multiple ? "multi:" : "single:") + tag);
        settled += count;
    };

    @Test
    void aRunOfAcksIsOneMultipleAck() {
        AckWindow window = new AckWindow();
        for (long tag = 1; tag <= 5; tag++) {
            window.add(tag);
        }
        for (long tag = 1; tag <= 5; tag++) {
            assertTrue(window.mark(tag, AckWindow.ACK_PENDING));
        }
        window.flush(sender);
        assertEquals(List.of("multi:5"), frames);
        assertEquals(5, settled);
        assertEquals(0, window.size());
    }

    @Test
    void aSingleAckIsNotMultiple() {
        AckWindow window = new AckWindow();
        window.add(7);
        window.mark(7, AckWindow.ACK_PENDING);
        window.flush(sender);
        assertEquals(List.of("single:7"), frames);
    }

    @Test
    void acksBehindADeliveryInFlightGoOneByOne() {
        AckWindow window = new AckWindow();
        for (long tag = 1; tag <= 4; tag++) {
            window.add(tag);
        }
        window.mark(1, AckWindow.ACK_PENDING);
        window.mark(3, AckWindow.ACK_PENDING);
        window.mark(4, AckWindow.ACK_PENDING);
        window.flush(sender);
        // 2 is still in flight: a multiple ack of 4 would settle it too.
        assertEquals(List.of("single:1", "single:3", "single:4"), frames);
        window.mark(2, AckWindow.ACK_PENDING);
        window.flush(sender);
        assertEquals(List.of("single:1", "single:3", "single:4", "single:2"), frames);
        assertEquals(4, settled);
        assertEquals(0, window.size());
    }

    @Test
    void aRejectedTagInsideARunIsCrossedButNotCounted() {
        AckWindow window = new AckWindow();
        for (long tag = 1; tag <= 3; tag++) {
            window.add(tag);
        }
        window.mark(1, AckWindow.ACK_PENDING);
        window.mark(2, AckWindow.SETTLED);
        window.mark(3, AckWindow.ACK_PENDING);
        window.flush(sender);
        assertEquals(List.of("multi:3"), frames);
        assertEquals(2, settled);
    }

    @Test
    void aTagIsSettledOnce() {
        AckWindow window = new AckWindow();
        window.add(1);
        assertTrue(window.mark(1, AckWindow.ACK_PENDING));
        assertFalse(window.mark(1, AckWindow.SETTLED));
        assertFalse(window.mark(99, AckWindow.ACK_PENDING));
    }

    @Test
    void theWindowGrowsPastItsFirstCapacity() {
        AckWindow window = new AckWindow();
        for (long tag = 1; tag <= 1000; tag++) {
            window.add(tag);
        }
        for (long tag = 1000; tag >= 1; tag--) {
            window.mark(tag, AckWindow.ACK_PENDING);
        }
        window.flush(sender);
        assertEquals(List.of("multi:1000"), frames);
        assertEquals(1000, settled);
    }
}
