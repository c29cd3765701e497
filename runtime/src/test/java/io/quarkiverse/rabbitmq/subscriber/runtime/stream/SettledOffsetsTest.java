package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The offset a stream consumer stores never passes a message that is not settled, whatever order they settle in. */
class SettledOffsetsTest {

    private final List<Long> processed = new ArrayList<>();

    @Test
    void storesTheEndOfTheSettledRunAtTheHead() {
        SettledOffsets offsets = new SettledOffsets();
        long first = offsets.arrived(10, () -> processed.add(10L));
        long second = offsets.arrived(12, () -> processed.add(12L));
        long third = offsets.arrived(13, () -> processed.add(13L));
        assertEquals(List.of(1L, 2L, 3L), List.of(first, second, third), "tags number the messages from 1");

        assertEquals(-1, offsets.settled(third, false), "the third is settled, the first two still run");
        assertEquals(-1, offsets.settled(second, false));
        assertEquals(13, offsets.settled(first, false), "the head settled: the run reaches the third");
        assertEquals(0, offsets.count());
        assertEquals(List.of(13L, 12L, 10L), processed, "each settled message frees the client's credit once");
    }

    @Test
    void aMultipleAckSettlesEverythingUpToItsTag() {
        SettledOffsets offsets = new SettledOffsets();
        offsets.arrived(0, () -> processed.add(0L));
        long two = offsets.arrived(1, () -> processed.add(1L));
        long three = offsets.arrived(2, () -> processed.add(2L));
        assertEquals(1, offsets.settled(two, true));
        assertEquals(1, offsets.count());
        assertEquals(2, offsets.settled(three, true));
        assertEquals(-1, offsets.settled(three, true), "settled twice: nothing moves, nothing is processed twice");
        assertEquals(List.of(0L, 1L, 2L), processed);
    }
}
