package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Which ack frames a window sends, that each delivery is counted settled exactly once, and what that costs. */
class AckWindowTest {

    private final List<String> frames = new ArrayList<>();
    private int settled;
    private final AckWindow.AckSender sender = (tag, multiple, count) -> {
        frames.add((multiple ? "multi:" : "single:") + tag);
        settled += count;
    };

    private static AckSlot[] add(AckWindow window, int count) {
        AckSlot[] slots = new AckSlot[count + 1];
        for (int tag = 1; tag <= count; tag++) {
            slots[tag] = window.add(tag);
        }
        return slots;
    }

    @Test
    void aRunOfAcksIsOneMultipleAck() {
        AckWindow window = new AckWindow();
        AckSlot[] slots = add(window, 5);
        for (int tag = 1; tag <= 5; tag++) {
            assertTrue(window.mark(slots[tag], AckWindow.ACK_PENDING));
        }
        window.flush(sender);
        assertEquals(List.of("multi:5"), frames);
        assertEquals(5, settled);
        assertEquals(0, window.size());
    }

    @Test
    void waitingCountsTheAcksMarkedSinceTheLastFlush() {
        AckWindow window = new AckWindow();
        AckSlot[] slots = add(window, 3);
        window.mark(slots[1], AckWindow.ACK_PENDING);
        window.mark(slots[3], AckWindow.ACK_PENDING);
        window.mark(slots[2], AckWindow.SETTLED);
        assertEquals(2, window.waiting());
        window.flush(sender);
        assertEquals(0, window.waiting());
    }

    @Test
    void aSingleAckIsNotMultiple() {
        AckWindow window = new AckWindow();
        AckSlot slot = window.add(7);
        window.mark(slot, AckWindow.ACK_PENDING);
        window.flush(sender);
        assertEquals(List.of("single:7"), frames);
    }

    @Test
    void acksBehindADeliveryInFlightGoOneByOne() {
        AckWindow window = new AckWindow();
        AckSlot[] slots = add(window, 4);
        window.mark(slots[1], AckWindow.ACK_PENDING);
        window.mark(slots[3], AckWindow.ACK_PENDING);
        window.mark(slots[4], AckWindow.ACK_PENDING);
        window.flush(sender);
        // 2 is still in flight: a multiple ack of 4 would settle it too.
        assertEquals(List.of("single:1", "single:3", "single:4"), frames);
        window.mark(slots[2], AckWindow.ACK_PENDING);
        window.flush(sender);
        assertEquals(List.of("single:1", "single:3", "single:4", "single:2"), frames);
        assertEquals(4, settled);
        assertEquals(0, window.size());
    }

    @Test
    void aRunStopsAtTheFirstDeliveryInFlight() {
        AckWindow window = new AckWindow();
        AckSlot[] slots = add(window, 5);
        window.mark(slots[1], AckWindow.ACK_PENDING);
        window.mark(slots[2], AckWindow.ACK_PENDING);
        window.mark(slots[4], AckWindow.ACK_PENDING);
        window.mark(slots[5], AckWindow.ACK_PENDING);
        window.flush(sender);
        assertEquals(List.of("multi:2", "single:4", "single:5"), frames);
        assertEquals(1, window.size());
    }

    @Test
    void aRejectedTagInsideARunIsCrossedButNotCounted() {
        AckWindow window = new AckWindow();
        AckSlot[] slots = add(window, 3);
        window.mark(slots[1], AckWindow.ACK_PENDING);
        window.mark(slots[2], AckWindow.SETTLED);
        window.mark(slots[3], AckWindow.ACK_PENDING);
        window.flush(sender);
        assertEquals(List.of("multi:3"), frames);
        assertEquals(2, settled);
    }

    @Test
    void aSlotIsSettledOnce() {
        AckWindow window = new AckWindow();
        AckSlot slot = window.add(1);
        assertTrue(window.mark(slot, AckWindow.ACK_PENDING));
        assertFalse(window.mark(slot, AckWindow.SETTLED));
        window.flush(sender);
        assertFalse(window.mark(slot, AckWindow.ACK_PENDING));
        assertEquals(List.of("single:1"), frames);
    }

    @Test
    void aLongRunSettledBackwardsIsStillOneFrame() {
        AckWindow window = new AckWindow();
        AckSlot[] slots = add(window, 1000);
        for (int tag = 1000; tag >= 1; tag--) {
            window.mark(slots[tag], AckWindow.ACK_PENDING);
        }
        window.flush(sender);
        assertEquals(List.of("multi:1000"), frames);
        assertEquals(1000, settled);
    }

    /**
     * One delivery is held by a slow handler while 100,000 later ones arrive, are acked and flushed, a prefetch of
     * 250 at a time: the window keeps only what is unsent (never more than the prefetch), and flushing looks at each
     * slot a bounded number of times, however long the backlog behind the held delivery grows.
     */
    @Test
    void oneHeldDeliveryDoesNotMakeTheOthersCostMore() {
        AckWindow window = new AckWindow();
        int prefetch = 250;
        AckSlot held = window.add(1);
        long tag = 2;
        int maxSize = 0;
        long visitedAtHalf = 0;
        List<AckSlot> batch = new ArrayList<>();
        while (tag <= 100_001) {
            // The broker sends up to the prefetch; one slot is the held delivery.
            while (window.size() < prefetch && tag <= 100_001) {
                batch.add(window.add(tag++));
            }
            maxSize = Math.max(maxSize, window.size());
            for (AckSlot slot : batch) {
                window.mark(slot, AckWindow.ACK_PENDING);
            }
            batch.clear();
            window.flush(sender);
            assertEquals(1, window.size(), "only the held delivery stays in the window");
            if (visitedAtHalf == 0 && tag > 50_001) {
                visitedAtHalf = window.visited();
            }
        }
        assertEquals(100_000, settled);
        assertTrue(maxSize <= prefetch, "the window never held more than the prefetch: " + maxSize);
        long secondHalf = window.visited() - visitedAtHalf;
        assertTrue(window.visited() <= 100_000, "each ack looked at once, not once per flush: " + window.visited());
        assertTrue(Math.abs(secondHalf - visitedAtHalf) <= prefetch,
                "the second 50,000 cost what the first did: " + visitedAtHalf + " then " + secondHalf);
        window.mark(held, AckWindow.ACK_PENDING);
        window.flush(sender);
        assertEquals("single:1", frames.get(frames.size() - 1));
        assertEquals(0, window.size());
    }
}
