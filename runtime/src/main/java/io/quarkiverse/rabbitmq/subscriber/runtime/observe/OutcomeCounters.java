package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts each queue's deliveries by what became of them; always on (the Dev UI shows these live), cheap (an adder per
 * queue and outcome).
 */
public final class OutcomeCounters {

    public static final String ACK = "ack";
    public static final String RETRY = "retry";
    public static final String RETRY_AFTER = "retry-after";
    public static final String DROP = "drop";
    public static final String DEAD_LETTER = "dead-letter";
    public static final String UNDECODABLE = "undecodable";
    public static final String FAILURE = "failure";
    /** A letter a dead-letter queue's reader could not handle, moved to its parking queue. */
    public static final String PARKED = "parked";
    /** A message the inbox had handled already ({@code inbox = true}): acked without calling the handler. */
    public static final String DUPLICATE = "duplicate";
    /**
     * The one list of what can become of a delivery: the Dev UI's columns, the metric's {@code outcome} tag and the
     * span attribute all take their values from it (a label is chosen by {@code DeliveryFate.label}).
     */
    public static final List<String> LABELS = List.of(ACK, RETRY, RETRY_AFTER, DROP, DEAD_LETTER, UNDECODABLE, FAILURE,
            PARKED, DUPLICATE);

    private final Map<String, Map<String, LongAdder>> byQueue = new ConcurrentHashMap<>();

    /** One queue's counters, to keep and count into without looking the queue up for each delivery. */
    public Counts of(String queue) {
        return new Counts(byQueue.computeIfAbsent(queue, ignored -> {
            Map<String, LongAdder> counts = new ConcurrentHashMap<>();
            LABELS.forEach(label -> counts.put(label, new LongAdder()));
            return counts;
        }));
    }

    public static final class Counts {
        private final Map<String, LongAdder> byOutcome;

        private Counts(Map<String, LongAdder> byOutcome) {
            this.byOutcome = byOutcome;
        }

        public void count(String outcome) {
            byOutcome.get(outcome).increment();
        }
    }

    /** Each queue's counts by outcome, every outcome listed; sorted, for display. */
    public Map<String, Map<String, Long>> snapshot() {
        Map<String, Map<String, Long>> snapshot = new TreeMap<>();
        byQueue.forEach((queue, counts) -> {
            Map<String, Long> values = new java.util.LinkedHashMap<>();
            LABELS.forEach(label -> values.put(label, counts.get(label).sum()));
            snapshot.put(queue, values);
        });
        return snapshot;
    }
}
