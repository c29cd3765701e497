package io.quarkiverse.rabbitmq.subscriber.runtime.confirm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class ConfirmTrackerTest {

    final ConfirmTracker<String> tracker = new ConfirmTracker<>();

    @Test
    void aMultipleConfirmSettlesEverythingUpToItsNumberOldestFirst() {
        for (int i = 1; i <= 5; i++) {
            tracker.published(i, "m" + i, "", "q", "p" + i, i);
        }
        assertEquals(List.of("p1", "p2", "p3"), tracker.answered(3, true));
        assertEquals(List.of(), tracker.answered(2, false), "already settled");
        assertEquals(List.of("p5"), tracker.answered(5, false));
        assertEquals(List.of("p4"), tracker.closed());
        assertTrue(tracker.isEmpty());
    }

    @Test
    void aReturnSettlesTheOldestPublishWithItsMessageIdAndDestination() {
        tracker.published(1, "same", "", "q1", "first", 0);
        tracker.published(2, "same", "", "q2", "other queue", 0);
        tracker.published(3, "same", "x", "q1", "other exchange", 0);
        tracker.published(4, "same", "", "q1", "second", 0);
        assertEquals("first", tracker.returned("same", "", "q1"));
        assertEquals("second", tracker.returned("same", "", "q1"));
        assertNull(tracker.returned("same", "", "q1"));
        // The confirm that follows a return finds nothing left to settle for it.
        assertEquals(List.of("other queue", "other exchange"), tracker.answered(4, true));
    }

    @Test
    void timeoutsTakeThePublishesOlderThanTheCutoffAndNothingElse() {
        tracker.published(1, "a", "", "q", "a", 100);
        tracker.published(2, "b", "", "q", "b", 200);
        tracker.published(3, "c", "", "q", "c", 300);
        assertEquals(List.of("a", "b"), tracker.publishedBefore(201));
        assertNull(tracker.returned("b", "", "q"), "a timed-out publish is no longer found by its return");
        assertEquals(List.of("c"), tracker.answered(3, true));
    }

    @Test
    void forgettingANumberLeavesANewerPublishThatReusedIt() {
        tracker.published(1, "old", "", "q", "old", 0);
        tracker.closed();
        // The channel was reopened: numbering starts at 1 again.
        tracker.published(1, "new", "", "q", "new", 0);
        tracker.forget(1, "old");
        assertEquals(List.of("new"), tracker.answered(1, false));
    }
}
