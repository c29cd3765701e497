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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberEngine;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The cluster run, on the three local nodes {@code .ci/cluster start} brings up (c1, c2, c3 on 5701-5703): 10,000
 * messages in a quorum queue with a cap and its dead-letter route, the load-and-fault run's workload (acks, retries
 * now and in 50 ms, drops, endless retries), consumed through {@code quarkus.rabbitmq-subscriber.addresses}; mid-run
 * the node the application is connected to is stopped ({@code rabbitmqctl stop_app}), then, separately, the queue's
 * leader. None is lost; duplicates are counted; the time until messages flow again is printed ({@code CLUSTER} lines).
 */
@EnabledIf(value = "clusterRuns", disabledReason = "run with -Dcluster.tests=true on a three-node cluster on "
        + "127.0.0.1:5701-5703 (.ci/cluster start; integration-tests/bench/faults.sh does both). Not in CI yet: one run in "
        + "three stalled after the application's node was stopped (see the Guarantees page)")
class ClusterFailoverTest {

    static final int MESSAGES = 10_000;
    static final String QUEUE = "cf.work";
    static final String CONNECTION = "cluster-test-" + ProcessHandle.current().pid();

    static boolean clusterRuns() {
        if (!Boolean.getBoolean("cluster.tests")) {
            return false;
        }
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
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Workload.class))
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
        Workload workload = handlers.workload;
        await().atMost(Duration.ofMinutes(2)).until(() -> workload.settled.size() >= MESSAGES / 4);
        report.add(stopAndResume("the application's node", appNode()));
        await().atMost(Duration.ofMinutes(2)).until(() -> workload.settled.size() >= MESSAGES / 2);
        report.add(stopAndResume("the queue's leader", leader()));
        try {
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
                    .until(() -> workload.settled.size() == MESSAGES);
        } finally {
            System.out.printf("CLUSTER messages=%d faults=2 %s%n", MESSAGES, workload.summary(MESSAGES));
            report.forEach(line -> System.out.println("CLUSTER " + line));
        }
        assertEquals(Set.of(), workload.lost(MESSAGES), "no message is lost");
        // At each fault, what the two subscribers had unsettled may come back: at most the prefetch each.
        assertTrue(workload.duplicates() <= 2 * 2 * 50, "duplicates " + workload.duplicates() + " within the "
                + "prefetch per fault");
    }

    /**
     * Stops a node's RabbitMQ application, waits until messages flow again (the subscribers consume, and 50 more
     * deliveries were handled, or all of them), then starts the node again.
     */
    private String stopAndResume(String what, String node) throws Exception {
        Workload workload = handlers.workload;
        int before = workload.deliveries.get();
        long stopped = System.nanoTime();
        ctl(node, "stop_app");
        int after = workload.deliveries.get();
        long resumed;
        try {
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(5))
                    .until(() -> engine.notReady().isEmpty() && (workload.deliveries.get() >= after + 50
                            || workload.settled.size() == MESSAGES));
            resumed = (System.nanoTime() - stopped) / 1_000_000;
        } finally {
            ctl(node, "start_app");
        }
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
        final Workload workload = new Workload();

        @Subscriber(value = QUEUE, type = QueueType.QUORUM, maxAttempts = 3, deadLetter = QUEUE + ".dead",
                concurrency = 8)
        Outcome handle(String body, Delivery delivery) {
            return workload.handle(body, delivery.retryCount() + delivery.redeliveryCount().orElse(0), delivery);
        }

        /** Quorum too: a classic queue lives on one node, and would be gone with it. */
        @Subscriber(value = QUEUE + ".dead", type = QueueType.QUORUM)
        void dead(String body, Delivery delivery) {
            workload.deadLetter(body, delivery);
        }
    }
}
