package org.acme.subscriber.test.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;

import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A RabbitMQ 4.3 node cut off from its cluster's majority cannot declare: its metadata store (Khepri) times out and it
 * closes the connection (541). On the three nodes {@code .ci/cluster43 start} brings up (k1, k2, k3 on 5711-5713, a
 * store timeout of 5 s), k1 is cut off from the other two (its Erlang distribution refuses them) before the
 * application starts; the application lists k1 first. Startup declares on k1, which times out; the connection goes to
 * k2 (k1 last from then on), the topology is declared there, and the subscriber consumes.
 */
@EnabledIf(value = "org.acme.subscriber.test.faults.KhepriMinorityTest#clusterRunning", disabledReason = "needs the "
        + "RabbitMQ 4.3 cluster on 127.0.0.1:5711-5713: run .ci/cluster43 start first (.ci/run does)")
class KhepriMinorityTest {

    static final String QUEUE = "km.orders-" + ProcessHandle.current().pid();
    static final String CONNECTION = "khepri-test-" + ProcessHandle.current().pid();
    static final String OTHERS = "['k2@localhost', 'k3@localhost']";

    /** One class at a time on these nodes: DeadLetterQueueNodeDownOn43Test stops k1. */
    @RegisterExtension
    @org.junit.jupiter.api.Order(0)
    static final io.quarkiverse.rabbitmq.subscriber.testsupport.ExclusiveResource exclusive = io.quarkiverse.rabbitmq.subscriber.testsupport.ExclusiveResource
            .named("cluster43");

    @RegisterExtension
    @org.junit.jupiter.api.Order(1)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(KhepriMinorityTest::cutOffK1)
            .setAfterAllCustomizer(KhepriMinorityTest::rejoinK1)
            .withApplicationRoot(jar -> jar.addClasses(Orders.class, ClusterNodes.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:guest@127.0.0.1")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.addresses", "127.0.0.1:5711,127.0.0.1:5712,127.0.0.1:5713")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .overrideConfigKey("km.queue", QUEUE)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "200ms")
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.INFO.intValue()
                    && record.getLoggerName().startsWith("io.quarkiverse.rabbitmq.subscriber"))
            .assertLogRecords(KhepriMinorityTest::saidWhatHappened);

    @Inject
    Orders orders;

    static boolean clusterRunning() {
        return java.nio.file.Files.isDirectory(java.nio.file.Path.of(
                System.getenv().getOrDefault("RABBITMQ43_ROOT", "/opt/rabbitmq43"), "tmp/rabbitmq-cluster43", "k1"));
    }

    @Test
    void aNodeInAMinorityIsLeftForOneThatCanDeclare() throws Exception {
        try (Connection connection = connect(5713); Channel channel = connection.createChannel()) {
            channel.basicPublish("", QUEUE, null, "order-1".getBytes(StandardCharsets.UTF_8));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> orders.received().contains("order-1"));

        String connections = ctl("k2", "list_connections", "client_properties", "port");
        assertTrue(connections.lines().anyMatch(line -> line.contains(CONNECTION + "\"") && line.endsWith("5712")),
                "the subscribers' connection is on k2: " + connections);
        assertEquals(List.of("order-1"), orders.received());
    }

    /** Checked once the application stopped: one WARN naming k1 and why, and the declaration made on k2. */
    static void saidWhatHappened(List<java.util.logging.LogRecord> records) {
        List<String> lines = records.stream().map(record -> record.getLevel() + " "
                + ((org.jboss.logmanager.ExtLogRecord) record).getFormattedMessage()).toList();
        String said = String.join("\n", lines);
        assertEquals(1, lines.stream().filter(line -> line.startsWith("WARN") && line.contains("RabbitMQ node 'k1@localhost'")
                && line.contains("metadata store timed out") && line.contains("other nodes")).count(), said);
        assertTrue(lines.stream().anyMatch(line -> line.contains("Declared the topology on 127.0.0.1:5712 at attempt 2")),
                said);
    }

    /** k1's Erlang distribution speaks a cookie the others refuse, so it cannot reach them, nor they it. */
    static void cutOffK1() {
        // .ci/run starts the nodes while the build compiles: they may still be forming their cluster.
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                .alias("the three 4.3 nodes running as one cluster (.ci/cluster43 start)")
                .until(() -> ctl("k1", "eval", "length(rabbit_nodes:list_running()).").trim().equals("3"));
        ctl("k1", "eval", "[erlang:set_cookie(N, cut_off) || N <- " + OTHERS + "], "
                + "[erlang:disconnect_node(N) || N <- " + OTHERS + "], ok.");
        // The other two elect a leader of their own if k1 led the store: a declaration on k2 works once they have.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
            try (Connection connection = connect(5712); Channel channel = connection.createChannel()) {
                channel.queueDeclare(QUEUE + ".probe", false, false, true, null);
                channel.queueDelete(QUEUE + ".probe");
                return true;
            }
        });
    }

    static void rejoinK1() {
        ctl("k1", "eval", "[erlang:set_cookie(N, erlang:get_cookie()) || N <- " + OTHERS + "], "
                + "[net_kernel:connect_node(N) || N <- " + OTHERS + "], ok.");
        try (Connection connection = connect(5712); Channel channel = connection.createChannel()) {
            channel.queueDelete(QUEUE);
        } catch (Exception e) {
            // nothing to delete
        }
    }

    static Connection connect(int port) throws Exception {
        return ClusterNodes.connect(port);
    }

    /** rabbitmqctl against one of the cluster's nodes, through {@code .ci/cluster43 ctl}. */
    static String ctl(String node, String... arguments) {
        return ClusterNodes.ctl43(node, arguments);
    }

    @ApplicationScoped
    public static class Orders {
        private final List<String> received = new CopyOnWriteArrayList<>();

        List<String> received() {
            return received;
        }

        @Subscriber(value = "${km.queue}", type = QueueType.QUORUM)
        void handle(String order) {
            received.add(order);
        }
    }
}
