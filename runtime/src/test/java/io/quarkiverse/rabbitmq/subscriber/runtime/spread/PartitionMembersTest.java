package io.quarkiverse.rabbitmq.subscriber.runtime.spread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Three instances deal 16 partitions 6, 5, 5 between them whatever order they joined in; one that stops beating is
 * gone after the liveness window and its partitions dealt again; a take-over claims above every other claim, and only
 * where this instance is not already the highest.
 */
class PartitionMembersTest {

    @Test
    void sixteenPartitionsOverThreeInstances() {
        Map<String, Integer> counts = new HashMap<>();
        java.util.Set<Integer> all = new java.util.TreeSet<>();
        for (String self : List.of("b", "a", "c")) {
            PartitionMembers members = new PartitionMembers(self, 16, 6_000);
            for (String other : List.of("a", "b", "c")) {
                members.heard(other, Map.of(), 0);
            }
            List<Integer> owned = members.owned(1_000);
            counts.put(self, owned.size());
            all.addAll(owned);
        }
        assertEquals(Map.of("a", 6, "b", 5, "c", 5), counts);
        assertEquals(16, all.size(), "every partition has its instance");
    }

    @Test
    void anInstanceThatStopsBeatingIsGoneAfterTheWindowAndItsPartitionsDealtAgain() {
        PartitionMembers members = new PartitionMembers("a", 4, 6_000);
        members.heard("b", Map.of(), 0);
        assertEquals(List.of(0, 2), members.owned(5_000));
        assertEquals(List.of(0, 1, 2, 3), members.owned(6_001));
        members.heard("c", Map.of(), 7_000);
        members.left("c");
        assertEquals(List.of("a"), members.live(7_000));
    }

    @Test
    void aTakeOverClaimsAboveEveryOtherClaimOnlyWhereItIsNotAlreadyHighest() {
        PartitionMembers members = new PartitionMembers("a", 4, 6_000);
        members.heard("b", Map.of(0, 3, 1, 7, 2, 1), 0);
        // a owns 0 and 2 (of a, b); it claims 0 above b's 3, and 2 above b's 1 unless it has 2 already.
        assertEquals(Map.of(0, 4, 2, 2), members.claimsToMake(Map.of(), 1_000));
        assertEquals(Map.of(0, 4), members.claimsToMake(Map.of(2, 5), 1_000));
        assertEquals(Map.of(), members.claimsToMake(Map.of(0, 4, 2, 2), 1_000));
        // b, gone, no longer counts: nothing to outbid.
        assertEquals(Map.of(), members.claimsToMake(Map.of(0, 1, 1, 1, 2, 1, 3, 1), 7_000));
        assertEquals(Map.of(1, 1, 3, 1), members.claimsToMake(Map.of(0, 1, 2, 1), 7_000));
    }

    @Test
    void anInstanceThatNoLongerHearsItsOwnBeatsKnowsItsViewIsStale() {
        PartitionMembers members = new PartitionMembers("a", 4, 6_000);
        assertFalse(members.hearsItself(0), "before its first beat came back");
        members.heard("a", Map.of(0, 1), 1_000);
        members.heard("b", Map.of(), 1_000);
        assertTrue(members.hearsItself(7_000));
        // A cut took its queue: neither its own beats nor b's come any more.
        assertFalse(members.hearsItself(7_001));
        assertEquals(List.of("a"), members.live(7_001), "b looks gone, but only to a deaf instance");
    }
}
