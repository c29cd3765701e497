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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.ExclusiveResource;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The cluster run, on the three local nodes {@code .ci/cluster start} brings up (c1, c2, c3 on 5701-5703): 20,000
 * messages in a quorum queue with a cap and its dead-letter route, the load-and-fault run's workload (acks, retries
 * now and in 50 ms, drops, endless retries), consumed through {@code quarkus.rabbitmq-subscriber.addresses}; mid-run
 * the node the application is connected to is stopped ({@code rabbitmqctl stop_app}), then, separately, the queue's
 * leader. None is lost; duplicates are counted; the time until messages flow again is printed ({@code CLUSTER} lines).
 */
@EnabledIf(value = "org.acme.subscriber.test.faults.ClusterNodes#running", disabledReason = "needs the three-node cluster on 127.0.0.1:5701-5703: run "
        + ".ci/cluster start first (.ci/run does)")
class ClusterFailoverTest {

    static final int MESSAGES = 20_000;
    static final String QUEUE = "cf.work";
    static final String CONNECTION = "cluster-test-" + ProcessHandle.current().pid();

    /** One class at a time, whichever JVM runs it: the other cluster run stops nodes or counts on them. */
    @RegisterExtension
    @Order(0)
    static final ExclusiveResource exclusive = ExclusiveResource.named("cluster");

    @RegisterExtension
    @Order(1)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(ClusterFailoverTest::deleteQueue)
            .setAfterAllCustomizer(ClusterFailoverTest::deleteQueue)
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Workload.class, ClusterNodes.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:guest@127.0.0.1")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.addresses", "127.0.0.1:5701,127.0.0.1:5702,127.0.0.1:5703")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.prefetch", "50")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "500ms");

    @Inject
    Handlers handlers;

    /** The duplicates counted when each fault began. */
    final List<Integer> duplicatesAtFault = new ArrayList<>();

    @Inject
    SubscriberStatus status;

    static void deleteQueue() {
        for (int node = 1; node <= 3; node++) {
            ClusterNodes.ctl("c" + node, "start_app");
        }
        try (Connection connection = ClusterNodes.connect(5703); Channel channel = connection.createChannel()) {
            channel.queueDelete(QUEUE);
            channel.queueDelete(QUEUE + ".dead");
        } catch (Exception e) {
            // nothing to delete
        }
    }

    @Test
    void noMessageIsLostWhenANodeOrTheLeaderGoes() throws Exception {
        // Asked before the run: rabbitmqctl takes a second or two, and the run must still be going when the node stops.
        String appNode = appNode();
        try (Connection connection = ClusterNodes.connect(5703); Channel channel = connection.createChannel()) {
            // With confirms, as a publisher that cannot lose messages does: a quorum queue has a message once a
            // majority of its members wrote it. Unconfirmed, the tail of the batch was lost when a node stopped right
            // after (the channel that still had to resend it to a new leader had closed): the "stall" of earlier runs.
            channel.confirmSelect();
            for (int i = 0; i < MESSAGES; i++) {
                channel.basicPublish("", QUEUE, new AMQP.BasicProperties.Builder().messageId("m-" + i).build(),
                        Integer.toString(i).getBytes(StandardCharsets.UTF_8));
            }
            channel.waitForConfirmsOrDie(60_000);
        }
        List<String> report = new ArrayList<>();
        Workload workload = handlers.workload;
        // Early: stop_app takes a second or two before it closes the connections, and the run goes on meanwhile.
        await().atMost(Duration.ofMinutes(2)).until(() -> workload.settled.size() >= MESSAGES / 20);
        report.add(stopAndResume("the application's node", appNode));
        report.add(stopAndResume("the queue's leader", leader()));
        try {
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100))
                    .until(() -> workload.settled.size() == MESSAGES);
        } finally {
            System.out.printf("CLUSTER messages=%d faults=2 %s%n", MESSAGES, workload.summary(MESSAGES));
            if (workload.settled.size() < MESSAGES) {
                // Once (1 run in about 15, under CI's load) deliveries stopped after the leader came back, with no
                // WARN: what the broker says of the queue and its consumers tells whether acks or credit were stuck.
                System.out.printf("CLUSTER stalled: %s%nCLUSTER consumers: %s%n",
                        ClusterNodes.ctl("c3", "list_queues name messages_ready messages_unacknowledged consumers leader"),
                        ClusterNodes.ctl("c3", "list_consumers queue_name ack_required prefetch_count active"));
            }
            // A fault's duplicates: those counted from its stop to the next fault's (redeliveries come late).
            duplicatesAtFault.add(workload.duplicates());
            for (int i = 0; i < report.size(); i++) {
                System.out.printf("CLUSTER %s; duplicates %d%n", report.get(i),
                        duplicatesAtFault.get(i + 1) - duplicatesAtFault.get(i));
            }
        }
        assertEquals(Set.of(), workload.lost(MESSAGES), "no message is lost");
        // Duplicates are reported, not bounded by the prefetch as on one node: acks the stopping node had taken and
        // not yet passed to the queue's leader are lost with it, so those messages come back (to the handler, or past
        // their delivery limit to the dead-letter queue). Measured 0 to 820 over 20,000; a tenth is surely wrong.
        assertTrue(workload.duplicates() <= MESSAGES / 10, "duplicates " + workload.duplicates());
    }

    /**
     * Stops a node's RabbitMQ application, waits until messages flow again (the subscribers consume, and 50 more
     * deliveries were handled, or all of them), then starts the node again.
     */
    private String stopAndResume(String what, String node) throws Exception {
        Workload workload = handlers.workload;
        int before = workload.deliveries.get();
        int duplicatesBefore = workload.duplicates();
        int settledBefore = workload.settled.size();
        long stopped = System.nanoTime();
        ClusterNodes.ctl(node, "stop_app");
        int after = workload.deliveries.get();
        long resumed;
        try {
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(5))
                    .until(() -> status.notReady().isEmpty() && (workload.deliveries.get() >= after + 50
                            || workload.settled.size() == MESSAGES));
            resumed = (System.nanoTime() - stopped) / 1_000_000;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            // What the cluster says while messages do not flow: the queue's leader and members, its consumers and
            // the channels' unacknowledged counts.
            String alive = node.equals("c1") ? "c2" : "c1";
            throw new AssertionError("messages did not flow again after stopping " + what + " (" + node + "); not ready: "
                    + status.notReady() + "; deliveries " + workload.deliveries.get() + " (were " + after + "); in flight "
                    + status.inFlight() + "; held copies " + status.heldCopies(QUEUE) + "; " + workload.summary(MESSAGES)
                    + "; missing, with their deliveries: "
                    + workload.lost(MESSAGES).stream().sorted().limit(12)
                            .map(id -> id + "=" + workload.seen.getOrDefault(id, List.of())).toList()
                    + "\n"
                    + ClusterNodes.ctl(alive, "list_queues", "name", "leader", "members", "online", "messages_ready",
                            "messages_unacknowledged", "consumers")
                    + ClusterNodes.ctl(alive, "list_consumers", "queue_name", "channel_pid", "ack_required", "prefetch_count",
                            "active", "activity_status")
                    + ClusterNodes.ctl(alive, "list_channels", "pid", "connection", "consumer_count", "messages_unacknowledged",
                            "prefetch_count"),
                    e);
        } finally {
            ClusterNodes.ctl(node, "start_app");
        }
        duplicatesAtFault.add(duplicatesBefore);
        return String.format("stopped %s (%s) with %d of %d messages done: messages flowing again after %d ms (%d "
                + "handled while stopping)", what, node, settledBefore, MESSAGES, resumed, after - before);
    }

    /** The node the application's connection is on, from the broker's connection list. */
    private static String appNode() {
        String connections = ClusterNodes.ctl("c1", "list_connections", "name", "client_properties");
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
        String queues = ClusterNodes.ctl("c1", "list_queues", "name", "leader");
        for (String line : queues.lines().toList()) {
            if (line.startsWith(QUEUE + "\t")) {
                return line.substring(line.indexOf('\t') + 1).trim().replace("@localhost", "");
            }
        }
        throw new AssertionError("no leader for " + QUEUE + " in " + queues);
    }

    public static class Handlers {
        // 2 ms a message, four at a time: the run lasts long enough for both faults to land in it (stop_app takes a
        // second or two before it closes the connections).
        final Workload workload = new Workload(2_000_000);

        @Subscriber(value = QUEUE, type = QueueType.QUORUM, maxAttempts = 3, deadLetter = QUEUE + ".dead", concurrency = 4)
        Outcome handle(String body, Delivery delivery) {
            return workload.handle(body, delivery.attempt() + delivery.redeliveryCount().orElse(0), delivery);
        }

        /** Quorum too: a classic queue lives on one node, and would be gone with it. */
        @Subscriber(value = QUEUE + ".dead", type = QueueType.QUORUM)
        void dead(String body, Delivery delivery) {
            workload.deadLetter(body, delivery);
        }
    }
}
