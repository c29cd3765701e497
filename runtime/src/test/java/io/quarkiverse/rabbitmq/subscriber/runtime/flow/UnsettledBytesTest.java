package io.quarkiverse.rabbitmq.subscriber.runtime.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The bound on unsettled body bytes: it holds the subscriber back at the bound, lets it go at half, and sizes the
 * prefetch it consumes again with from the largest body seen; small bodies grow the prefetch back.
 */
public class UnsettledBytesTest {

    /** Read only (the WARN's spacing): no timer is set. */
    public static final io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock CLOCK = new io.quarkiverse.rabbitmq.subscriber.runtime.clock.WallClock(
            null);

    /** A bound nothing reaches, for tests of other parts. */
    public static UnsettledBytes unbounded() {
        return new UnsettledBytes("q", Long.MAX_VALUE, 0, new Recorded(), CLOCK);
    }

    static final class Recorded implements BackPressure {
        final List<String> said = new ArrayList<>();

        @Override
        public void full() {
            said.add("full");
        }

        @Override
        public void room() {
            said.add("room");
        }
    }

    @Test
    void atTheBoundItHoldsBackAndAtHalfItConsumesAgainWithAPrefetchTheBoundHolds() {
        Recorded pressure = new Recorded();
        UnsettledBytes bytes = new UnsettledBytes("q", 1_000_000, 250, pressure, CLOCK);
        assertEquals(250, bytes.prefetch());
        for (int i = 0; i < 9; i++) {
            bytes.taken(100_000);
        }
        assertEquals(List.of(), pressure.said);
        bytes.taken(100_000);
        assertEquals(List.of("full"), pressure.said, "1 MB unsettled");
        // Arrivals already on their way while the consumer is cancelled: no second signal.
        bytes.taken(100_000);
        assertEquals(List.of("full"), pressure.said);
        for (int i = 0; i < 5; i++) {
            bytes.released(100_000);
        }
        assertEquals(List.of("full"), pressure.said, "600 KB: still above half");
        bytes.released(100_000);
        assertEquals(List.of("full", "room"), pressure.said);
        assertEquals(10, bytes.prefetch(), "1 MB holds ten bodies of 100 KB");
        assertEquals(500_000, bytes.bytes());
    }

    @Test
    void smallBodiesGrowTheCutPrefetchBack() {
        Recorded pressure = new Recorded();
        UnsettledBytes bytes = new UnsettledBytes("q", 1_000_000, 250, pressure, CLOCK);
        bytes.taken(1_000_000);
        bytes.released(1_000_000);
        assertEquals(1, bytes.prefetch());
        pressure.said.clear();
        // At a prefetch of 1, four small deliveries: the bound holds 250 of them.
        for (int i = 0; i < 4; i++) {
            bytes.taken(100);
            bytes.released(100);
        }
        assertEquals(250, bytes.prefetch());
        assertEquals(List.of("full", "room"), pressure.said, "consumes again once, with the larger prefetch");
    }

    @Test
    void anUnlimitedPrefetchIsLeftAsItIs() {
        Recorded pressure = new Recorded();
        UnsettledBytes bytes = new UnsettledBytes("q", 1_000, 0, pressure, CLOCK);
        bytes.taken(2_000);
        bytes.released(2_000);
        assertEquals(List.of("full", "room"), pressure.said);
        assertEquals(0, bytes.prefetch());
    }
}
