package org.acme.subscriber.test.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.ExclusiveResource;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code DLX_TTL} retries of a quorum queue across a full restart of the three-node cluster ({@code .ci/cluster}): every
 * message is handled, answers {@code retryAfter}, and its copy waits in the waiting queue; all three nodes stop; the
 * copies' delay passes while they are down; the nodes start again, together. The copies expire as the waiting queue
 * comes back, often before the work queue has a leader. A classic waiting queue dead-letters at most once, so such a copy
 * was dropped (1 of 1,250 in the reliability probe); the quorum waiting queue a quorum work queue now gets dead-letters at
 * least once and holds it until the work queue takes it. Every message must be handled a second time.
 */
@EnabledIf(value = "org.acme.subscriber.test.faults.ClusterNodes#running", disabledReason = "needs the "
        + "three-node cluster on 127.0.0.1:5701-5703: run .ci/cluster start first (.ci/run does)")
class ClusterFullRestartTest {

    static final int MESSAGES = 1_000;
    static final String QUEUE = "cr.work";
    static final Duration DELAY = Duration.ofSeconds(8);

    /** One class at a time, whichever JVM runs it: the other cluster run stops nodes or counts on them. */
    @RegisterExtension
    @Order(0)
    static final ExclusiveResource exclusive = ExclusiveResource.named("cluster");

    @RegisterExtension
    @Order(1)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(ClusterFullRestartTest::deleteQueues)
            .setAfterAllCustomizer(ClusterFullRestartTest::deleteQueues)
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, ClusterNodes.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:guest@127.0.0.1")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.addresses", "127.0.0.1:5701,127.0.0.1:5702,127.0.0.1:5703")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", "cluster-restart-test")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "500ms")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.max-delay", "2s");

    @Inject
    Handlers handlers;

    static void deleteQueues() {
        for (int node = 1; node <= 3; node++) {
            ClusterNodes.ctl("c" + node, "start_app");
        }
        try (Connection connection = ClusterNodes.connect(5703); Channel channel = connection.createChannel()) {
            for (String queue : List.of(QUEUE, QUEUE + ".retry", QUEUE + ".dead")) {
                channel.queueDelete(queue);
            }
        } catch (Exception e) {
            // nothing to delete
        }
    }

    @Test
    void noDelayedRetryIsLostWhenTheWholeClusterRestarts() throws Exception {
        try (Connection connection = ClusterNodes.connect(5703); Channel channel = connection.createChannel()) {
            channel.confirmSelect();
            for (int i = 0; i < MESSAGES; i++) {
                channel.basicPublish("", QUEUE, new AMQP.BasicProperties.Builder().messageId("m-" + i)
                        .deliveryMode(2).build(), Integer.toString(i).getBytes(StandardCharsets.UTF_8));
            }
            channel.waitForConfirmsOrDie(60_000);
        }
        // Every message handled once and waiting in the waiting queue (its copy confirmed before the ack).
        await().atMost(Duration.ofMinutes(2)).until(() -> handlers.first().size() == MESSAGES);
        long lastCopy = System.nanoTime();
        long stopping = System.nanoTime();
        for (String node : List.of("c1", "c2", "c3")) {
            ClusterNodes.ctl(node, "stop_app");
        }
        long stopped = (System.nanoTime() - stopping) / 1_000_000;
        // The copies' delay passes while the whole cluster is down.
        long due = lastCopy + DELAY.toNanos() + 1_000_000_000L;
        await().atMost(DELAY.plusSeconds(30)).until(() -> System.nanoTime() >= due);
        long starting = System.nanoTime();
        // Together: a node that was not the last to stop waits for the others to start.
        CompletableFuture.allOf(List.of("c1", "c2", "c3").stream()
                .map(node -> CompletableFuture.runAsync(() -> ClusterNodes.ctl(node, "start_app")))
                .toArray(CompletableFuture[]::new)).get();
        long started = (System.nanoTime() - starting) / 1_000_000;
        try {
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                    .until(() -> handlers.second().size() == MESSAGES);
        } finally {
            long flowing = (System.nanoTime() - starting) / 1_000_000;
            System.out.printf("CLUSTER-RESTART messages=%d stopped all in %d ms, started all in %d ms, every retry "
                    + "handled %d ms after the start began: %d of %d; handlings %d%n", MESSAGES, stopped, started,
                    flowing, handlers.second().size(), MESSAGES, handlers.handlings());
        }
        Set<String> lost = new TreeSet<>(handlers.first());
        lost.removeAll(handlers.second());
        assertEquals(Set.of(), lost, "every delayed retry came back");
    }

    @ApplicationScoped
    public static class Handlers {
        private final Set<String> first = ConcurrentHashMap.newKeySet();
        private final Set<String> second = ConcurrentHashMap.newKeySet();
        private final AtomicInteger handlings = new AtomicInteger();

        Set<String> first() {
            return first;
        }

        Set<String> second() {
            return second;
        }

        int handlings() {
            return handlings.get();
        }

        @Subscriber(value = QUEUE, type = QueueType.QUORUM, maxAttempts = 5, deadLetter = QUEUE
                + ".dead", delay = Delay.DLX_TTL)
        Outcome handle(String body, Delivery delivery) {
            handlings.incrementAndGet();
            if (delivery.attempt() == 1) {
                first.add(body);
                return Outcome.retryAfter(DELAY);
            }
            second.add(body);
            return Outcome.ack();
        }
    }
}
