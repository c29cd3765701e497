package io.quarkiverse.rabbitmq.subscriber.runtime.spread;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What one instance knows of the instances consuming a partitioned subscription, from their heartbeats: who is live
 * (heard within the liveness window, itself always), which partitions each should be active on, and the consumer
 * priority each claims on each partition. Pure: the caller gives the time and the heartbeats.
 * <p>
 * The partitions are dealt over the live instances in the order of their ids: partition {@code p} to the
 * {@code p mod n}-th, so every instance gets {@code count / n} or one more (16 over 3: 6, 5, 5), whoever joined last.
 * An instance that takes a partition over claims a priority above every other live instance's claim on it:
 * RabbitMQ 4's quorum queues then hand the partition over once the active consumer has settled what it holds.
 * Claims only grow, so views that differ for a moment (heartbeats cross) settle on the latest claim, and the owner
 * outbids any claim made meanwhile from a view that was out of date.
 */
public final class PartitionMembers {

    private final String self;
    private final int partitions;
    private final long livenessMillis;
    private final Map<String, Long> lastHeard = new HashMap<>();
    private final Map<String, Map<Integer, Integer>> claims = new HashMap<>();
    /** When this instance last heard its own heartbeat come back; -1 before the first. */
    private long selfHeardAt = -1;

    /**
     * @param self this instance's id
     * @param partitions how many partitions the subscription has
     * @param livenessMillis how long after its last heartbeat an instance counts as gone
     */
    public PartitionMembers(String self, int partitions, long livenessMillis) {
        this.self = self;
        this.partitions = partitions;
        this.livenessMillis = livenessMillis;
    }

    /** A heartbeat of {@code id} with its claims (partition to priority), at {@code now}. */
    public void heard(String id, Map<Integer, Integer> claimed, long now) {
        if (id.equals(self)) {
            selfHeardAt = now;
            return;
        }
        lastHeard.put(id, now);
        claims.put(id, Map.copyOf(claimed));
    }

    /**
     * Whether this instance heard its own heartbeat within the liveness window: if not, it hears nobody's (its queue went
     * with a connection that was cut), and what it knows of the others is stale.
     */
    public boolean hearsItself(long now) {
        return selfHeardAt >= 0 && now - selfHeardAt <= livenessMillis;
    }

    /** An instance said it is leaving (a clean stop): gone at once. */
    public void left(String id) {
        lastHeard.remove(id);
        claims.remove(id);
    }

    /** The live instances, itself included, in the order of their ids. */
    public List<String> live(long now) {
        lastHeard.entrySet().removeIf(heard -> now - heard.getValue() > livenessMillis);
        claims.keySet().retainAll(lastHeard.keySet());
        TreeSet<String> live = new TreeSet<>(lastHeard.keySet());
        live.add(self);
        return new ArrayList<>(live);
    }

    /** The partitions this instance should be active on, given the live instances. */
    public List<Integer> owned(long now) {
        List<String> live = live(now);
        int rank = live.indexOf(self);
        List<Integer> owned = new ArrayList<>();
        for (int partition = rank; partition < partitions; partition += live.size()) {
            owned.add(partition);
        }
        return owned;
    }

    /** The highest priority another live instance claims on {@code partition}; 0 when none claims it. */
    public int highestOtherClaim(int partition) {
        int highest = 0;
        for (Map<Integer, Integer> claimed : claims.values()) {
            highest = Math.max(highest, claimed.getOrDefault(partition, 0));
        }
        return highest;
    }

    /**
     * The claims this instance must make now: for each partition it should be active on whose claim ({@code mine})
     * another live instance's claim matches or exceeds, one above the highest.
     */
    public Map<Integer, Integer> claimsToMake(Map<Integer, Integer> mine, long now) {
        Map<Integer, Integer> toMake = new java.util.TreeMap<>();
        for (int partition : owned(now)) {
            int highest = highestOtherClaim(partition);
            if (mine.getOrDefault(partition, 0) <= highest) {
                toMake.put(partition, highest + 1);
            }
        }
        return toMake;
    }
}
