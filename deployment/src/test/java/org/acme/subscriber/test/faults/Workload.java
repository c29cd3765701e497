package org.acme.subscriber.test.faults;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;

/**
 * The fault runs' workload and its bookkeeping. By the message's number: 0 drops; 1 and 2 retry at once, then ack; 3
 * retries in 50 ms, then acks; 4 always retries (and is dead-lettered at the cap); the others ack. Each id ends in
 * processed, dropped or dead-lettered; how many times it got there counts the duplicates.
 */
final class Workload {

    final Map<String, AtomicInteger> processed = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> dropped = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> deadLettered = new ConcurrentHashMap<>();
    /** Every id that reached one of the three places. */
    final Set<String> settled = ConcurrentHashMap.newKeySet();
    final AtomicInteger deliveries = new AtomicInteger();
    /** Each delivery's queue, attempt and redelivered flag, by id (for the report when one goes missing). */
    final Map<String, List<String>> seen = new ConcurrentHashMap<>();
    /** How long each delivery's handling takes. */
    private final long workNanos;

    Workload() {
        this(100_000);
    }

    Workload(long workNanos) {
        this.workNanos = workNanos;
    }

    Outcome handle(String body, int attempt, Delivery delivery) {
        deliveries.incrementAndGet();
        seen.computeIfAbsent(body, id -> new CopyOnWriteArrayList<>())
                .add(delivery.queue() + ":" + attempt + (delivery.redelivered() ? "r" : ""));
        // A little work per message, so the faults land while messages still flow.
        LockSupport.parkNanos(workNanos);
        Outcome outcome = switch (Integer.parseInt(body) % 10) {
            case 0 -> Outcome.drop();
            case 1, 2 -> attempt == 1 ? Outcome.retry() : Outcome.ack();
            case 3 -> attempt == 1 ? Outcome.retryAfter(Duration.ofMillis(50)) : Outcome.ack();
            case 4 -> Outcome.retry();
            default -> Outcome.ack();
        };
        if (outcome == Outcome.ack()) {
            place(processed, body);
        } else if (outcome == Outcome.drop()) {
            place(dropped, body);
        }
        return outcome;
    }

    /** A dead letter. A quorum queue's route also takes what the handler dropped (reason "rejected"): drops. */
    void deadLetter(String body, Delivery delivery) {
        Object deaths = delivery.header("x-death");
        String reason = deaths instanceof List<?> list && !list.isEmpty()
                ? String.valueOf(((Map<?, ?>) list.get(0)).get("reason"))
                : "";
        if (!reason.equals("rejected")) {
            place(deadLettered, body);
        }
    }

    private void place(Map<String, AtomicInteger> where, String id) {
        where.computeIfAbsent(id, ignored -> new AtomicInteger()).incrementAndGet();
        settled.add(id);
    }

    /** The ids of 0..messages-1 in none of the three places. */
    Set<String> lost(int messages) {
        Set<String> lost = new HashSet<>();
        for (int i = 0; i < messages; i++) {
            if (!settled.contains(Integer.toString(i))) {
                lost.add(Integer.toString(i));
            }
        }
        return lost;
    }

    /** Ids both handled and dead-lettered: on a quorum queue, acks lost at cuts can pass the delivery limit late. */
    Set<String> handledThenDeadLettered() {
        Set<String> both = new HashSet<>(deadLettered.keySet());
        Set<String> handled = new HashSet<>(processed.keySet());
        handled.addAll(dropped.keySet());
        both.retainAll(handled);
        return both;
    }

    /** Handlings beyond the first, plus dead letters of messages that were handled. */
    int duplicates() {
        return extra(processed) + extra(dropped) + extra(deadLettered) + handledThenDeadLettered().size();
    }

    private static int extra(Map<String, AtomicInteger> counts) {
        return counts.values().stream().mapToInt(count -> count.get() - 1).sum();
    }

    String summary(int messages) {
        return String.format("lost=%d duplicates=%d (processed %d, dropped %d, dead-lettered %d, deliveries %d)",
                lost(messages).size(), duplicates(), processed.size(), dropped.size(), deadLettered.size(),
                deliveries.get());
    }
}
