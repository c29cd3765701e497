package org.acme.subscriber.test.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import jakarta.inject.Inject;

import org.acme.subscriber.test.RabbitAdmin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The load-and-fault run, the way RabbitMQ's own Jepsen suite judges a client: 50,000 messages over a classic queue
 * (runtime cap, waiting-queue delays) and a quorum queue (server cap, in-service delays), a handler that acks, retries
 * now, retries later and drops at fixed rates, and four faults mid-run: three {@code rabbitmqctl close_connection} and
 * one network stall then reset (an in-JVM TCP proxy). Then every message must be in exactly one of processed, dropped,
 * dead-lettered: none lost. Duplicates are counted, reported and bounded by the prefetch per cut. The numbers (time to
 * resume after each fault, duplicates) are printed for {@code bench/faults.sh}; only correctness is asserted.
 */
class LoadAndFaultTest {

    static final int MESSAGES = Integer.getInteger("faults.messages", 50_000);
    static final int PREFETCH = 50;
    static final String CLASSIC = "lf.classic";
    static final String QUORUM = "lf.quorum";
    static final String[] QUEUES = { CLASSIC, CLASSIC + ".dead", CLASSIC + ".retry", QUORUM, QUORUM + ".dead" };
    static final String CONNECTION = "load-fault-test-" + ProcessHandle.current().pid();
    static final ToxicProxy.Handle PROXY = ToxicProxy.shared(5672);

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(LoadAndFaultTest::deleteQueues)
            .setAfterAllCustomizer(() -> {
                deleteQueues();
                PROXY.close().run();
            })
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, RabbitAdmin.class, ToxicProxy.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:guest@127.0.0.1:" + PROXY.port())
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.prefetch", String.valueOf(PREFETCH))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "500ms");

    static void deleteQueues() {
        RabbitAdmin.with(admin -> admin.delete(QUEUES));
    }

    @Inject
    Handlers handlers;

    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberEngine engine;

    @Test
    void noMessageIsLostWhateverTheFaults() throws Exception {
        long started = System.nanoTime();
        RabbitAdmin.with(admin -> {
            for (int i = 0; i < MESSAGES; i++) {
                admin.publishRaw(i % 2 == 0 ? CLASSIC : QUORUM, Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                        new AMQP.BasicProperties.Builder().messageId("m-" + i).build());
            }
        });
        List<String> resumes = new ArrayList<>();
        String[] faults = { "close_connection", "close_connection", "stall 2 s then reset", "close_connection" };
        double[] at = { 0.1, 0.3, 0.5, 0.7 };
        for (int f = 0; f < faults.length; f++) {
            int threshold = (int) (MESSAGES * at[f]);
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(10))
                    .until(() -> handlers.settledIds() >= threshold);
            long faulted = System.nanoTime();
            if (faults[f].equals("close_connection")) {
                List<String> connections = RabbitAdmin.connectionsNamed(CONNECTION);
                for (String connection : connections) {
                    RabbitAdmin.rabbitmqctl("close_connection", connection.substring(0, connection.indexOf('\t')),
                            "fault injected by test");
                }
            } else {
                PROXY.stallThenReset().accept(Duration.ofSeconds(2));
            }
            // Resumed: the engine noticed the fault and every subscriber consumes again (what readiness reports).
            try {
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                        .until(() -> !engine.notReady().isEmpty());
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                // recovered before a poll saw it
            }
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(5))
                    .until(() -> engine.notReady().isEmpty());
            resumes.add(String.format("%s at %d%%: consuming again %d ms after the fault was injected", faults[f],
                    (int) (at[f] * 100), (System.nanoTime() - faulted) / 1_000_000));
        }
        try {
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
                    .until(() -> handlers.settledIds() == MESSAGES);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            List<String> missing = new ArrayList<>();
            for (int i = 0; i < MESSAGES && missing.size() < 20; i++) {
                if (!handlers.settled.contains(Integer.toString(i))) {
                    missing.add(i + (i % 2 == 0 ? "@classic" : "@quorum") + " kind " + (i % 10) + " seen "
                            + handlers.seen.getOrDefault(Integer.toString(i), List.of()));
                }
            }
            System.out.println("FAULTS not settled: " + (MESSAGES - handlers.settledIds()) + ", e.g. " + missing);
            System.out.println("FAULTS queues: " + RabbitAdmin.rabbitmqctl("list_queues", "name", "messages_ready",
                    "messages_unacknowledged", "consumers"));
            throw e;
        }
        long elapsed = (System.nanoTime() - started) / 1_000_000;

        Set<String> all = new HashSet<>();
        for (int i = 0; i < MESSAGES; i++) {
            all.add(Integer.toString(i));
        }
        Set<String> lost = new HashSet<>(all);
        lost.removeAll(handlers.processed.keySet());
        lost.removeAll(handlers.dropped.keySet());
        lost.removeAll(handlers.deadLettered.keySet());
        Set<String> inTwo = new HashSet<>();
        for (String id : all) {
            int places = (handlers.processed.containsKey(id) ? 1 : 0) + (handlers.dropped.containsKey(id) ? 1 : 0)
                    + (handlers.deadLettered.containsKey(id) ? 1 : 0);
            if (places > 1) {
                inTwo.add(id);
            }
        }
        // A quorum queue counts the returns a cut causes: a message whose acks were lost at cuts can pass its delivery
        // limit after it was processed, and be dead-lettered too. It was handled: its dead letter is a duplicate.
        int duplicates = extra(handlers.processed) + extra(handlers.dropped) + extra(handlers.deadLettered)
                + inTwo.size();
        System.out.printf("FAULTS messages=%d faults=%d elapsed=%d ms lost=%d dead-lettered-after-handled=%d "
                + "duplicates=%d "
                + "(processed %d, dropped %d, dead-lettered %d, deliveries %d)%n", MESSAGES, faults.length, elapsed,
                lost.size(), inTwo.size(), duplicates, handlers.processed.size(), handlers.dropped.size(),
                handlers.deadLettered.size(), handlers.deliveries.get());
        resumes.forEach(line -> System.out.println("FAULTS " + line));

        assertEquals(Set.of(), lost, "no message is lost");
        inTwo.forEach(id -> System.out.println("FAULTS handled, then dead-lettered too: " + id + " "
                + handlers.seen.get(id)));
        // At a cut, what each of the four subscribers had unsettled comes back: at most the prefetch each.
        int bound = faults.length * 4 * PREFETCH;
        assertTrue(duplicates <= bound, "duplicates " + duplicates + " within " + bound);
        // Duplicates may still be on their way (a copy waiting out its delay): every queue empties.
        RabbitAdmin.with(admin -> await().atMost(Duration.ofSeconds(30)).until(() -> List.of(CLASSIC, QUORUM,
                CLASSIC + ".retry", CLASSIC + ".dead", QUORUM + ".dead").stream().allMatch(q -> admin.depth(q) == 0)));
    }

    /** Handlings beyond the first, over all ids. */
    static int extra(Map<String, AtomicInteger> counts) {
        return counts.values().stream().mapToInt(count -> count.get() - 1).sum();
    }

    public static class Handlers {
        final Map<String, AtomicInteger> processed = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> dropped = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> deadLettered = new ConcurrentHashMap<>();
        final AtomicInteger deliveries = new AtomicInteger();

        /** Every id that reached one of the three places. */
        final Set<String> settled = ConcurrentHashMap.newKeySet();

        int settledIds() {
            return settled.size();
        }

        void place(Map<String, AtomicInteger> where, String id) {
            where.computeIfAbsent(id, ignored -> new AtomicInteger()).incrementAndGet();
            settled.add(id);
        }

        /**
         * By the message's number: 0 drops; 1 and 2 retry at once, then ack; 3 retries in 50 ms, then acks; 4 always
         * retries (and is dead-lettered at the cap of 3); the others ack.
         */
        /** Each delivery's attempt and redelivered flag, by id (for the report when one goes missing). */
        final Map<String, List<String>> seen = new ConcurrentHashMap<>();

        Outcome handle(String body, int attempt, Delivery delivery) {
            deliveries.incrementAndGet();
            seen.computeIfAbsent(body, id -> new java.util.concurrent.CopyOnWriteArrayList<>())
                    .add(delivery.queue() + ":" + attempt + (delivery.redelivered() ? "r" : ""));
            // A little work per message, so the faults land while messages still flow.
            LockSupport.parkNanos(100_000);
            int kind = Integer.parseInt(body) % 10;
            Outcome outcome = switch (kind) {
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

        @Subscriber(value = CLASSIC, maxAttempts = 3, deadLetter = CLASSIC + ".dead", delay = Delay.DLX_TTL,
                concurrency = 8)
        Outcome classic(String body, Delivery delivery) {
            return handle(body, delivery.retryCount(), delivery);
        }

        @Subscriber(value = QUORUM, type = QueueType.QUORUM, maxAttempts = 3, deadLetter = QUORUM + ".dead",
                concurrency = 8)
        Outcome quorum(String body, Delivery delivery) {
            return handle(body, delivery.retryCount() + delivery.redeliveryCount().orElse(0), delivery);
        }

        @Subscriber(CLASSIC + ".dead")
        void classicDead(String body) {
            place(deadLettered, body);
        }

        /** A quorum queue's route also takes what the handler dropped (reason "rejected"): those were drops. */
        @Subscriber(QUORUM + ".dead")
        void quorumDead(String body, Delivery delivery) {
            Object deaths = delivery.header("x-death");
            String reason = deaths instanceof List<?> list && !list.isEmpty()
                    ? String.valueOf(((Map<?, ?>) list.get(0)).get("reason")) : "";
            if (!reason.equals("rejected")) {
                place(deadLettered, body);
            }
        }
    }
}
