package org.acme.subscriber.test.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.ExclusiveResource;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The load-and-fault run, the way RabbitMQ's own Jepsen suite judges a client: 50,000 messages over a classic queue
 * (runtime cap, waiting-queue delays) and a quorum queue (server cap, in-service delays), a handler that acks, retries
 * now, retries later and drops at fixed rates, and four faults mid-run: three {@code rabbitmqctl close_connection} and
 * one network stall then reset (an in-JVM TCP proxy). At 40% two poison messages arrive: one with a header table nested
 * 40 deep on a queue of its own (amqp-client cannot read it and ends the connection: its subscriber must stop, alone,
 * and the others go on), and one on the classic queue whose headers leave no room for the retry-count header (no copy
 * of it can be published: it must be requeued once, then dead-lettered as received). Then every message must be in
 * exactly one of processed, dropped, dead-lettered: none lost. Duplicates are counted, reported and bounded by the prefetch per
 * cut. The numbers (time to
 * resume after each fault, duplicates) are printed for {@code bench/faults.sh}; only correctness is asserted.
 */
@Tag("wire")
@Tag("serial")
class LoadAndFaultTest {

    /** CI runs 20,000 (the faults fall while they flow); bench/faults.sh passes its own count, 50,000 by default. */
    static final int MESSAGES = Integer.getInteger("faults.messages", 20_000);
    static final int PREFETCH = 50;
    static final String CLASSIC = "lf.classic";
    static final String QUORUM = "lf.quorum";
    /** Where the unreadable message goes: its subscriber is the one that must stop. */
    static final String POISONED = "lf.poisoned";
    static final String[] QUEUES = { CLASSIC, CLASSIC + ".dead", CLASSIC + ".retry", QUORUM, QUORUM + ".dead",
            POISONED };
    /** The message no copy can be made of: kind 4 (always retried), so it must end in the dead-letter queue. */
    static final String OVERSIZED = Integer.toString(MESSAGES + 4);
    /** The readiness entry of the poisoned queue's subscriber, once it stopped. */
    static final String POISONED_ENTRY = "queue " + POISONED;
    static final String CONNECTION = "load-fault-test-" + ProcessHandle.current().pid();
    static final ToxicProxy.Handle PROXY = ToxicProxy.shared(WireBroker.PORT);

    /**
     * Changes what the whole broker does (or times a fault): never beside another such class, whichever JVM runs it. The
     * serial phase runs these with the tests that use no broker, in several JVMs.
     */
    @RegisterExtension
    @Order(0)
    static final ExclusiveResource brokerWide = ExclusiveResource.named("broker-wide");

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUES);

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setAfterAllCustomizer(() -> PROXY.close().run())
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Workload.class, ToxicProxy.class,
                    org.acme.subscriber.test.PoisonMessages.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:guest@127.0.0.1:" + PROXY.port())
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.prefetch", String.valueOf(PREFETCH))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "500ms");

    @Inject
    Handlers handlers;

    @Inject
    SubscriberStatus status;

    @Test
    void noMessageIsLostWhateverTheFaults() throws Exception {
        long started = System.nanoTime();
        RabbitAdmin.with(admin -> {
            // Confirmed: what the test counts as lost must have reached the queues.
            admin.confirmPublishes();
            for (int i = 0; i < MESSAGES; i++) {
                admin.publishRaw(i % 2 == 0 ? CLASSIC : QUORUM, Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                        new AMQP.BasicProperties.Builder().messageId("m-" + i).build());
            }
            admin.awaitConfirms();
        });
        List<String> resumes = new ArrayList<>();
        String[] faults = { "close_connection", "close_connection", "poison", "stall 2 s then reset", "close_connection" };
        double[] at = { 0.1, 0.3, 0.4, 0.5, 0.7 };
        for (int f = 0; f < faults.length; f++) {
            int threshold = (int) (MESSAGES * at[f]);
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(10))
                    .until(() -> handlers.workload.settled.size() >= threshold);
            long faulted = System.nanoTime();
            if (faults[f].equals("poison")) {
                resumes.add(poison());
                continue;
            }
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
                        .until(() -> !othersNotReady().isEmpty());
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                // recovered before a poll saw it
            }
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(5))
                    .until(() -> othersNotReady().isEmpty());
            resumes.add(String.format("%s at %d%%: consuming again %d ms after the fault was injected", faults[f],
                    (int) (at[f] * 100), (System.nanoTime() - faulted) / 1_000_000));
        }
        try {
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
                    .until(() -> handlers.workload.settled.size() == MESSAGES + 1);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            List<String> missing = new ArrayList<>();
            for (int i = 0; i < MESSAGES && missing.size() < 20; i++) {
                if (!handlers.workload.settled.contains(Integer.toString(i))) {
                    missing.add(i + (i % 2 == 0 ? "@classic" : "@quorum") + " kind " + (i % 10) + " seen "
                            + handlers.workload.seen.getOrDefault(Integer.toString(i), List.of()));
                }
            }
            System.out.println("FAULTS not settled: " + (MESSAGES + 1 - handlers.workload.settled.size()) + ", e.g. "
                    + missing + (handlers.workload.settled.contains(OVERSIZED) ? "" : " and " + OVERSIZED));
            System.out.println("FAULTS queues: " + RabbitAdmin.rabbitmqctl("list_queues", "name", "messages_ready",
                    "messages_unacknowledged", "consumers"));
            throw e;
        }
        long elapsed = (System.nanoTime() - started) / 1_000_000;
        Workload workload = handlers.workload;
        System.out.printf("FAULTS messages=%d faults=%d elapsed=%d ms %s%n", MESSAGES, faults.length, elapsed,
                workload.summary(MESSAGES));
        resumes.forEach(line -> System.out.println("FAULTS " + line));
        workload.handledThenDeadLettered().forEach(id -> System.out.println("FAULTS handled, then dead-lettered too: "
                + id + " " + workload.seen.get(id)));
        assertEquals(Set.of(), workload.lost(MESSAGES), "no message is lost");
        assertTrue(workload.deadLettered.containsKey(OVERSIZED), "the message no copy could be made of: "
                + workload.seen.get(OVERSIZED));
        assertEquals(List.of(), handlers.poisoned, "the poisoned queue's handler never saw its message");
        assertEquals(1L, (long) RabbitAdmin.<Long> withResult(admin -> admin.depth(POISONED)), "it waits in its queue");
        assertTrue(status.notReady().get(POISONED_ENTRY).contains("cannot be read by the client"),
                status.notReady().toString());
        // At a cut, what each of the four subscribers had unsettled comes back: at most the prefetch each (the poison
        // cuts the connection twice).
        int bound = (faults.length + 1) * 4 * PREFETCH;
        assertTrue(workload.duplicates() <= bound, "duplicates " + workload.duplicates() + " within " + bound);
        // Duplicates may still be on their way (a copy waiting out its delay): every queue empties.
        RabbitAdmin.with(admin -> await().atMost(Duration.ofSeconds(30)).until(() -> List.of(CLASSIC, QUORUM,
                CLASSIC + ".retry", CLASSIC + ".dead", QUORUM + ".dead").stream().allMatch(q -> admin.depth(q) == 0)));
    }

    /** What readiness reports but the poisoned queue's subscriber, which stops for good once found. */
    private java.util.Map<String, String> othersNotReady() {
        java.util.Map<String, String> others = new java.util.TreeMap<>(status.notReady());
        others.remove(POISONED_ENTRY);
        return others;
    }

    /**
     * Publishes the two poison messages, waits until the unreadable one's subscriber stopped and the others consume
     * again, and says how fast the other queues settled meanwhile.
     */
    private String poison() throws Exception {
        int before = handlers.workload.settled.size();
        long started = System.nanoTime();
        RabbitAdmin.with(admin -> {
            admin.publishRaw(POISONED, "deep".getBytes(StandardCharsets.UTF_8), new AMQP.BasicProperties.Builder()
                    .messageId("deep-1").headers(org.acme.subscriber.test.PoisonMessages.nested(40))
                    .build());
            admin.publishRaw(CLASSIC, OVERSIZED.getBytes(StandardCharsets.UTF_8),
                    org.acme.subscriber.test.PoisonMessages.leavingRoom("oversized", 10));
        });
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(10))
                .until(() -> status.notReady().containsKey(POISONED_ENTRY) && othersNotReady().isEmpty());
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        int settled = handlers.workload.settled.size() - before;
        return String.format("poison at 40%%: its subscriber stopped and the others consume again %d ms after it was "
                + "published; the other queues settled %d messages meanwhile (%d msg/s)", tookMillis, settled,
                settled * 1000L / Math.max(1, tookMillis));
    }

    public static class Handlers {
        final Workload workload = new Workload();
        final List<String> poisoned = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Subscriber(POISONED)
        void poisoned(String body) {
            poisoned.add(body);
        }

        @Subscriber(value = CLASSIC, maxAttempts = 3, deadLetter = CLASSIC + ".dead", delay = Delay.DLX_TTL, concurrency = 8)
        Outcome classic(String body, Delivery delivery) {
            return workload.handle(body, delivery.attempt(), delivery);
        }

        @Subscriber(value = QUORUM, type = QueueType.QUORUM, maxAttempts = 3, deadLetter = QUORUM + ".dead", concurrency = 8)
        Outcome quorum(String body, Delivery delivery) {
            return workload.handle(body, delivery.attempt() + delivery.redeliveryCount().orElse(0), delivery);
        }

        @Subscriber(CLASSIC + ".dead")
        void classicDead(String body, Delivery delivery) {
            workload.deadLetter(body, delivery);
        }

        @Subscriber(QUORUM + ".dead")
        void quorumDead(String body, Delivery delivery) {
            workload.deadLetter(body, delivery);
        }
    }
}
