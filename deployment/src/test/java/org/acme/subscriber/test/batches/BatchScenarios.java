package org.acme.subscriber.test.batches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Batch;
import io.quarkiverse.rabbitmq.subscriber.BatchOutcome;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.assemble.DeliveryCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.smallrye.mutiny.Uni;

/**
 * Batch handlers, written once and run on each broker: each item settles as its own outcome would (a retry, a dead
 * letter, an undecodable body among acked ones), the acks of a batch leave in one frame, a batch closes at its size or
 * at maxWait on the runtime's clock (the in-process broker's virtual one: the test passes it at once), a throw fails
 * every item, the batch's outputs leave once before its acks. Handlers on workers, on the event loop (Uni,
 * CompletionStage).
 */
abstract class BatchScenarios extends BrokerScenarios {

    static final String ITEMS = "bt.items";
    static final String ITEMS_DEAD = "bt.items.dead";
    static final String ACKS = "bt.acks";
    static final String WAITS = "bt.waits";
    static final String FAILS = "bt.fails";
    static final String FAILS_DEAD = "bt.fails.dead";
    static final String LINES = "bt.lines";
    static final String SUMMARIES = "bt.summaries";
    static final String QUORUM = "bt.quorum";
    static final String QUORUM_DEAD = "bt.quorum.dead";
    static final String[] QUEUES = { ITEMS, ITEMS_DEAD, ACKS, WAITS, FAILS, FAILS_DEAD, LINES, SUMMARIES, QUORUM,
            QUORUM_DEAD };

    static final Class<?>[] APPLICATION = { Handlers.class, Reading.class, CapturedLogs.class };

    @Inject
    Handlers handlers;

    @Inject
    InProcessBroker inProcessBroker;

    @Inject
    DeliveryCounters counters;

    /** On the in-process broker the virtual clock passes at once; on RabbitMQ {@link #until} waits for it. */
    void pass(Duration duration) {
        if (session.embeddedBroker().isPresent()) {
            inProcessBroker.awaitIdle();
            inProcessBroker.advance(duration);
        }
    }

    static String reading(int n) {
        return "{\"sensor\":\"s-" + n + "\",\"value\":" + n + "}";
    }

    @Test
    void eachItemSettlesAsItsOwnOutcomeWouldAndTheRestAreAckedOnce() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            for (int n = 0; n < 10; n++) {
                publish(ITEMS, n == 7 ? "not json" : reading(n));
            }
            // 9 items in one call (7 is undecodable); item 3 retried comes back alone, after maxWait.
            until(() -> !handlers.calls(ITEMS).isEmpty());
            pass(Duration.ofSeconds(1));
            until(() -> handlers.calls(ITEMS).size() == 2 && depth(ITEMS_DEAD) == 2 && depth(ITEMS) == 0);
            assertEquals(List.of("s-0@1", "s-1@1", "s-2@1", "s-3@1", "s-4@1", "s-5@1", "s-6@1", "s-8@1", "s-9@1"),
                    handlers.calls(ITEMS).get(0), "9 items at their first attempt, in order, without the undecodable");
            assertEquals(List.of("s-3@2"), handlers.calls(ITEMS).get(1), "item 3 retried once, alone");
            Map<String, Object> dead = new java.util.TreeMap<>();
            for (Fetched letter : drain(ITEMS_DEAD)) {
                dead.put(body(letter), String.valueOf(header(letter, Outcome.DEAD_LETTER_REASON_HEADER)));
            }
            assertEquals(java.util.Set.of(reading(5), "not json"), dead.keySet());
            assertEquals("no such sensor", dead.get(reading(5)));
            assertEquals(1, logs.errors().stream().filter(line -> line.contains("Cannot decode")
                    && line.contains("queue '" + ITEMS + "'")).count(),
                    () -> "the undecodable item is reported alone, once: " + logs.errors());
        }
    }

    @Test
    void onAQuorumQueueAnItemRetriedToTheLimitIsDeadLetteredByTheServer() throws Exception {
        for (int n = 0; n < 3; n++) {
            publish(QUORUM, reading(n));
        }
        until(() -> !handlers.calls(QUORUM).isEmpty());
        pass(Duration.ofSeconds(1));
        until(() -> depth(QUORUM_DEAD) == 1 && depth(QUORUM) == 0);
        List<String> attempts = handlers.calls(QUORUM).stream().flatMap(List::stream).sorted().toList();
        assertEquals(List.of("s-0@-", "s-1@-", "s-1@-", "s-2@-"), attempts,
                "s-1 retried once (the limit is 2 deliveries), the others acked at once");
        assertEquals(reading(1), body(drain(QUORUM_DEAD).get(0)));
    }

    @Test
    void theAcksOfABatchLeaveInOneFrame() throws Exception {
        long acked = counters.stats().acked();
        long frames = counters.stats().ackFrames();
        for (int n = 0; n < 50; n++) {
            publish(ACKS, reading(n));
        }
        until(() -> handlers.calls(ACKS).stream().mapToInt(List::size).sum() == 50 && depth(ACKS) == 0
                && counters.stats().acked() - acked == 50);
        assertEquals(List.of(50), handlers.calls(ACKS).stream().map(List::size).toList(), "one call of 50");
        long sent = counters.stats().ackFrames() - frames;
        assertTrue(sent <= 2, () -> "50 acks in " + sent + " frames (basic.ack multiple)");
    }

    @Test
    void aBatchClosesAtMaxWaitAfterItsFirstMessage() throws Exception {
        for (int n = 0; n < 3; n++) {
            publish(WAITS, reading(n));
        }
        if (session.embeddedBroker().isPresent()) {
            inProcessBroker.awaitIdle();
            assertEquals(List.of(), handlers.calls(WAITS), "the batch waits for its size or maxWait");
            inProcessBroker.advance(Duration.ofMillis(1999));
            assertEquals(List.of(), handlers.calls(WAITS), "not before maxWait");
            inProcessBroker.advance(Duration.ofMillis(1));
        }
        until(() -> handlers.calls(WAITS).size() == 1 && depth(WAITS) == 0);
        assertEquals(List.of(List.of("s-0@-", "s-1@-", "s-2@-")), handlers.calls(WAITS));
    }

    @Test
    void aThrowFailsEveryItemOfTheBatch() throws Exception {
        CapturedLogs logs = new CapturedLogs();
        for (int n = 0; n < 4; n++) {
            publish(FAILS, reading(n));
        }
        until(() -> !handlers.calls(FAILS).isEmpty());
        pass(Duration.ofSeconds(1));
        until(() -> depth(FAILS_DEAD) == 4 && depth(FAILS) == 0);
        logs.close();
        List<String> reported = logs.lines().stream()
                .filter(line -> line.contains("DeliveryReporter") && line.contains("queue '" + FAILS + "'")).toList();
        assertEquals(1, reported.stream().filter(line -> line.contains("4 of its message(s) get another attempt"))
                .count(), () -> "the batch's retry said once, not once per item: " + reported);
        assertEquals(4, logs.errors().stream().filter(line -> line.contains("queue '" + FAILS + "'")
                && line.contains("dead-letter queue '" + FAILS_DEAD + "'")).count(),
                () -> "each message given up says so: " + reported);
        assertEquals(5, reported.size(), () -> "nothing else at INFO or above: " + reported);
        List<String> attempts = handlers.calls(FAILS).stream().flatMap(List::stream).sorted().toList();
        assertEquals(List.of("s-0@1", "s-0@2", "s-1@1", "s-1@2", "s-2@1", "s-2@2", "s-3@1", "s-3@2"), attempts,
                "every item of the failed batch retried, then dead-lettered at the cap");
        drain(FAILS_DEAD);
    }

    @Test
    void theOutputsOfABatchLeaveOnceBeforeItsAcks() throws Exception {
        for (int n = 0; n < 5; n++) {
            publish(LINES, reading(n));
        }
        until(() -> handlers.summaries.size() == 1 && depth(LINES) == 0);
        assertEquals(List.of("5 lines: s-0 s-1 s-2 s-3 s-4"), handlers.summaries);
    }

    public record Reading(String sensor, double value) {
    }

    public static class Handlers {
        final Map<String, List<List<String>>> calls = new ConcurrentHashMap<>();
        final List<String> summaries = new CopyOnWriteArrayList<>();

        List<List<String>> calls(String queue) {
            return calls.getOrDefault(queue, List.of());
        }

        private void record(String queue, List<Reading> readings, List<Delivery> deliveries) {
            List<String> items = new ArrayList<>();
            for (int i = 0; i < readings.size(); i++) {
                items.add(readings.get(i).sensor() + "@" + (deliveries == null ? "-" : deliveries.get(i).attempt()));
            }
            calls.computeIfAbsent(queue, key -> new CopyOnWriteArrayList<>()).add(items);
        }

        private static int indexOf(List<Reading> readings, String sensor) {
            for (int i = 0; i < readings.size(); i++) {
                if (readings.get(i).sensor().equals(sensor)) {
                    return i;
                }
            }
            return -1;
        }

        /** Item s-3 retried (at its first attempt, whose retry count is 1), s-5 dead-lettered, the rest acked. */
        @Subscriber(value = ITEMS, maxAttempts = 3, deadLetter = ITEMS_DEAD, batch = @Batch(size = 10, maxWait = "1s"))
        BatchOutcome items(List<Reading> readings, List<Delivery> deliveries) {
            record(ITEMS, readings, deliveries);
            BatchOutcome outcome = BatchOutcome.ack();
            int three = indexOf(readings, "s-3");
            if (three >= 0 && deliveries.get(three).attempt() == 1) {
                outcome = outcome.retry(three);
            }
            int five = indexOf(readings, "s-5");
            return five < 0 ? outcome : outcome.deadLetter(five, "no such sensor");
        }

        /** s-1 always retried: the queue's delivery limit (maxAttempts) ends it in the dead-letter queue. */
        @Subscriber(value = QUORUM, type = io.quarkiverse.rabbitmq.subscriber.QueueType.QUORUM, maxAttempts = 2, deadLetter = QUORUM_DEAD, batch = @Batch(size = 3, maxWait = "1s"))
        BatchOutcome quorum(List<Reading> readings) {
            record(QUORUM, readings, null);
            int one = indexOf(readings, "s-1");
            return one < 0 ? BatchOutcome.ack() : BatchOutcome.ack().retry(one);
        }

        @Subscriber(value = ACKS, batch = @Batch(size = 50, maxWait = "30s"))
        void acks(List<Reading> readings) {
            record(ACKS, readings, null);
        }

        /** On the event loop. */
        @Subscriber(value = WAITS, batch = @Batch(size = 100, maxWait = "2s"))
        Uni<BatchOutcome> waits(List<Reading> readings) {
            record(WAITS, readings, null);
            return Uni.createFrom().item(BatchOutcome.ack());
        }

        @Subscriber(value = FAILS, maxAttempts = 2, deadLetter = FAILS_DEAD, batch = @Batch(size = 4, maxWait = "1s"))
        void fails(List<Reading> readings, List<Delivery> deliveries) {
            record(FAILS, readings, deliveries);
            throw new IllegalStateException("the bulk API refused the batch");
        }

        /** On the event loop, one output per batch. */
        @Subscriber(value = LINES, batch = @Batch(size = 5, maxWait = "30s"))
        CompletionStage<BatchOutcome> lines(List<Reading> readings, Outputs outputs) {
            outputs.send(SUMMARIES, readings.size() + " lines: "
                    + String.join(" ", readings.stream().map(Reading::sensor).toList()));
            return CompletableFuture.completedFuture(BatchOutcome.ack());
        }

        @Subscriber(SUMMARIES)
        void summary(String summary) {
            summaries.add(summary);
        }
    }
}
