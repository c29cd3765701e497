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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberEngine;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The cluster run, on the three local nodes {@code .ci/cluster start} brings up (c1, c2, c3 on 5701-5703): 10,000
 * messages in a quorum queue, consumed through {@code quarkus.rabbitmq-subscriber.addresses}; mid-run the node the
 * application is connected to is stopped ({@code rabbitmqctl stop_app}), then, separately, the queue's leader. None
 * is lost; duplicates are counted; the time until the subscribers consume again is printed ({@code CLUSTER} lines).
 */
@EnabledIf(value = "clusterRuns", disabledReason = "no three-node cluster on 127.0.0.1:5701-5703: start one with "
        + ".ci/cluster start (CI does)")
class ClusterFailoverTest {

    static final int MESSAGES = 10_000;
    static final String QUEUE = "cf.work";
    static final String CONNECTION = "cluster-test-" + ProcessHandle.current().pid();

    static boolean clusterRuns() {
        for (int port = 5701; port <= 5703; port++) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                // answers
            } catch (Exception e) {
                return false;
            }
        }
        return true;
    }

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(ClusterFailoverTest::deleteQueue)
            .setAfterAllCustomizer(ClusterFailoverTest::deleteQueue)
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:guest@127.0.0.1")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.addresses", "127.0.0.1:5701,127.0.0.1:5702,127.0.0.1:5703")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.prefetch", "50")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "500ms");

    @Inject
    Handlers handlers;

    @Inject
    SubscriberEngine engine;

    static void deleteQueue() {
        for (int node = 1; node <= 3; node++) {
            ctl("c" + node, "start_app");
        }
        try (Connection connection = connect(5703); Channel channel = connection.createChannel()) {
            channel.queueDelete(QUEUE);
            channel.queueDelete(QUEUE + ".dead");
        } catch (Exception e) {
            // nothing to delete
        }
    }

    @Test
    void noMessageIsLostWhenANodeOrTheLeaderGoes() throws Exception {
        try (Connection connection = connect(5703); Channel channel = connection.createChannel()) {
            for (int i = 0; i < MESSAGES; i++) {
                channel.basicPublish("", QUEUE, new AMQP.BasicProperties.Builder().messageId("m-" + i).build(),
                        Integer.toString(i).getBytes(StandardCharsets.UTF_8));
            }
        }
        List<String> report = new ArrayList<>();
        await().atMost(Duration.ofMinutes(2)).until(() -> handlers.processed.size() >= MESSAGES / 4);
        report.add(stopAndResume("the application's node", appNode()));
        await().atMost(Duration.ofMinutes(2)).until(() -> handlers.processed.size() >= MESSAGES / 2);
        report.add(stopAndResume("the queue's leader", leader()));
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> handlers.processed.size() == MESSAGES);

        Set<String> lost = new HashSet<>();
        for (int i = 0; i < MESSAGES; i++) {
            if (!handlers.processed.containsKey(Integer.toString(i))) {
                lost.add(Integer.toString(i));
            }
        }
        int duplicates = handlers.processed.values().stream().mapToInt(count -> count.get() - 1).sum();
        System.out.printf("CLUSTER messages=%d faults=2 lost=%d duplicates=%d deliveries=%d%n", MESSAGES, lost.size(),
                duplicates, handlers.deliveries.get());
        report.forEach(line -> System.out.println("CLUSTER " + line));
        assertEquals(Set.of(), lost, "no message is lost");
        assertTrue(duplicates <= 2 * 2 * 50, "duplicates " + duplicates + " within the prefetch per cut");
    }

    /**
     * Stops a node's RabbitMQ application, waits until messages flow again (the subscribers consume, and 50 more
     * deliveries were handled, or all of them), then starts the node again.
     */
    private String stopAndResume(String what, String node) throws Exception {
        int before = handlers.deliveries.get();
        long stopped = System.nanoTime();
        ctl(node, "stop_app");
        int after = handlers.deliveries.get();
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(5))
                .until(() -> engine.notReady().isEmpty() && (handlers.deliveries.get() >= after + 50
                        || handlers.processed.size() == MESSAGES));
        long resumed = (System.nanoTime() - stopped) / 1_000_000;
        ctl(node, "start_app");
        return String.format("stopped %s (%s): messages flowing again after %d ms (%d handled while stopping)", what,
                node, resumed, after - before);
    }

    /** The node the application's connection is on, from the broker's connection list. */
    private static String appNode() {
        String connections = ctl("c1", "list_connections", "name", "client_properties");
        for (String line : connections.lines().toList()) {
            if (line.contains(CONNECTION) && !line.contains(CONNECTION + "-publisher")) {
                int port = Integer.parseInt(line.replaceAll(".*-> 127\\.0\\.0\\.1:(\\d+).*", "$1"));
                return "c" + (port - 5700);
            }
        }
        throw new AssertionError("no connection named " + CONNECTION + " in " + connections);
    }

    /** The node leading the quorum queue. */
    private static String leader() {
        String queues = ctl("c1", "list_queues", "name", "leader");
        for (String line : queues.lines().toList()) {
            if (line.startsWith(QUEUE + "\t")) {
                return line.substring(line.indexOf('\t') + 1).trim().replace("@localhost", "");
            }
        }
        throw new AssertionError("no leader for " + QUEUE + " in " + queues);
    }

    static String ctl(String node, String... arguments) {
        try {
            List<String> command = new ArrayList<>(List.of("su", "rabbitmq", "-s", "/bin/sh", "-c",
                    "HOME=/var/lib/rabbitmq rabbitmqctl -q -n " + node + "@localhost " + String.join(" ", arguments)));
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor();
            return output;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Connection connect(int port) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("127.0.0.1");
        factory.setPort(port);
        return factory.newConnection("cluster-test-admin");
    }

    public static class Handlers {
        final Map<String, AtomicInteger> processed = new ConcurrentHashMap<>();
        final AtomicInteger deliveries = new AtomicInteger();

        @Subscriber(value = QUEUE, type = QueueType.QUORUM, maxAttempts = 5, deadLetter = QUEUE + ".dead",
                concurrency = 8)
        Outcome handle(String body) {
            deliveries.incrementAndGet();
            LockSupport.parkNanos(200_000);
            processed.computeIfAbsent(body, id -> new AtomicInteger()).incrementAndGet();
            return Outcome.ack();
        }
    }
}
