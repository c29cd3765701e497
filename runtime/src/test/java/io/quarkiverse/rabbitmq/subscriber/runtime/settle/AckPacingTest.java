package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/** When a subscriber's waiting acks leave: at once after a quiet spell or when the broker's credit runs low. */
class AckPacingTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private final AtomicInteger prefetch = new AtomicInteger(250);
    private final AckPacing pacing = new AckPacing(prefetch::get);

    @Test
    void theFirstAcksLeaveAtOnce() {
        assertEquals(0, pacing.delay(1, 1, 0));
    }

    @Test
    void acksSoonAfterAFrameWaitForTheRestOfTheQuietSpell() {
        pacing.sent(100 * MS);
        assertEquals(AckPacing.QUIET_NANOS - 2 * MS, pacing.delay(10, 20, 102 * MS));
    }

    @Test
    void aTrickleIsAckedAtOnce() {
        pacing.sent(100 * MS);
        assertEquals(0, pacing.delay(1, 1, 100 * MS + AckPacing.QUIET_NANOS));
        assertEquals(0, pacing.delay(1, 1, 900 * MS));
    }

    @Test
    void aQuarterOfThePrefetchWaitingLeavesAtOnce() {
        pacing.sent(100 * MS);
        assertEquals(0, pacing.delay(62, 62, 101 * MS));
        assertEquals(AckPacing.QUIET_NANOS - MS, pacing.delay(61, 61, 101 * MS));
    }

    /** The broker sends no more than the prefetch unacknowledged: with half of it unsent, nothing waits. */
    @Test
    void halfThePrefetchUnsentLeavesAtOnce() {
        pacing.sent(100 * MS);
        assertEquals(0, pacing.delay(1, 125, 101 * MS));
        assertEquals(AckPacing.QUIET_NANOS - MS, pacing.delay(1, 124, 101 * MS));
    }

    /** A prefetch cut by the bound on bytes (or set to 1 for ordered work) leaves no ack waiting for others. */
    @Test
    void aSmallPrefetchAcksAtOnce() {
        pacing.sent(100 * MS);
        prefetch.set(1);
        assertEquals(0, pacing.delay(1, 1, 100 * MS));
        prefetch.set(4);
        assertEquals(0, pacing.delay(1, 2, 100 * MS));
    }

    @Test
    void anUnlimitedPrefetchGathersUpToItsBatch() {
        prefetch.set(0);
        pacing.sent(100 * MS);
        assertEquals(AckPacing.QUIET_NANOS, pacing.delay(AckPacing.UNLIMITED_BATCH - 1, 10_000, 100 * MS));
        assertEquals(0, pacing.delay(AckPacing.UNLIMITED_BATCH, 10_000, 100 * MS));
    }

    /** What leaves at once does so whenever the last frame left (handlers' threads ask it, not knowing when). */
    @Test
    void whatLeavesAtOnceIsTheSameWithoutATime() {
        assertEquals(true, pacing.atOnce(62, 1));
        assertEquals(true, pacing.atOnce(1, 125));
        assertEquals(false, pacing.atOnce(61, 124));
        prefetch.set(0);
        assertEquals(false, pacing.atOnce(AckPacing.UNLIMITED_BATCH - 1, 10_000));
        assertEquals(true, pacing.atOnce(AckPacing.UNLIMITED_BATCH, 10_000));
    }

    @Test
    void nothingWaitingIsNothingToHoldBack() {
        pacing.sent(100 * MS);
        assertEquals(0, pacing.delay(0, 100, 100 * MS));
    }
}
