package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * The offset a stream consumer stores never passes a message that is not settled, whatever order they settle in; each
 * partition of a super stream keeps its own.
 */
class SettledOffsetsTest {

    private final List<Long> processed = new ArrayList<>();

    /** What one settlement stores, by stream; -1 when nothing moved (one stream). */
    private static long settle(SettledOffsets offsets, long tag, boolean upTo) {
        Map<String, Long> stored = settleAll(offsets, tag, upTo);
        return stored.isEmpty() ? -1 : stored.values().iterator().next();
    }

    private static Map<String, Long> settleAll(SettledOffsets offsets, long tag, boolean upTo) {
        Map<String, Long> stored = new TreeMap<>();
        offsets.settled(tag, upTo, (stream, offset) -> stored.put(stream, offset));
        return stored;
    }

    @Test
    void storesTheEndOfTheSettledRunAtTheHead() {
        SettledOffsets offsets = new SettledOffsets();
        long first = offsets.arrived("s", 10, () -> processed.add(10L));
        long second = offsets.arrived("s", 12, () -> processed.add(12L));
        long third = offsets.arrived("s", 13, () -> processed.add(13L));
        assertEquals(List.of(1L, 2L, 3L), List.of(first, second, third), "tags number the messages from 1");

        assertEquals(-1, settle(offsets, third, false), "the third is settled, the first two still run");
        assertEquals(-1, settle(offsets, second, false));
        assertEquals(13, settle(offsets, first, false), "the head settled: the run reaches the third");
        assertEquals(0, offsets.count());
        assertEquals(List.of(13L, 12L, 10L), processed, "each settled message frees the client's credit once");
    }

    @Test
    void aMultipleAckSettlesEverythingUpToItsTag() {
        SettledOffsets offsets = new SettledOffsets();
        offsets.arrived("s", 0, () -> processed.add(0L));
        long two = offsets.arrived("s", 1, () -> processed.add(1L));
        long three = offsets.arrived("s", 2, () -> processed.add(2L));
        assertEquals(1, settle(offsets, two, true));
        assertEquals(1, offsets.count());
        assertEquals(2, settle(offsets, three, true));
        assertEquals(-1, settle(offsets, three, true), "settled twice: nothing moves, nothing is processed twice");
        assertEquals(List.of(0L, 1L, 2L), processed);
    }

    @Test
    void aPartitionsWaitingMessageHoldsBackOnlyItsOwnPartition() {
        SettledOffsets offsets = new SettledOffsets();
        long waiting = offsets.arrived("s-0", 5, () -> processed.add(5L));
        long other = offsets.arrived("s-1", 7, () -> processed.add(7L));
        long behind = offsets.arrived("s-0", 6, () -> processed.add(6L));
        assertEquals(Map.of("s-1", 7L), settleAll(offsets, other, false),
                "the other partition stores its offset while s-0's head still runs");
        assertEquals(Map.of(), settleAll(offsets, behind, false), "s-0's offset never passes its waiting head");
        assertEquals(Map.of("s-0", 6L), settleAll(offsets, waiting, false));
        assertEquals(0, offsets.count());
        long a = offsets.arrived("s-0", 7, () -> processed.add(7L));
        long b = offsets.arrived("s-1", 8, () -> processed.add(8L));
        assertEquals(Map.of("s-0", 7L, "s-1", 8L), settleAll(offsets, Math.max(a, b), true),
                "a multiple ack settles across the partitions, each storing its own");
    }
}
