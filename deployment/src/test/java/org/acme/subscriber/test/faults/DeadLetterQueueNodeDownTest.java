package org.acme.subscriber.test.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.ExclusiveResource;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A quorum subscription whose dead-letter queue is a classic queue on another node ({@code .ci/cluster}'s c1) goes on
 * consuming while that node is down, also after its connection is cut: subscribing again checks its dead-letter queue,
 * which RabbitMQ answers with "home node ... is down or inaccessible". It had been read as "missing", then declared,
 * refused, and the subscription stopped consuming its quorum queue, which was available all along, until the node came
 * back (found by the soak run). The dead letters of that time are returned by RabbitMQ, wait in the work queue, and
 * reach the dead-letter queue once its node is back: none is lost.
 */
@EnabledIf(value = "org.acme.subscriber.test.faults.ClusterNodes#running", disabledReason = "needs the "
        + "three-node cluster on 127.0.0.1:5701-5703: run .ci/cluster start first (.ci/run does)")
class DeadLetterQueueNodeDownTest {

    /** A three-node cluster: its nodes' names (prefix and 1-3), first AMQP port, and rabbitmqctl with plain arguments. */
    record Cluster(String prefix, int firstPort, java.util.function.BiFunction<String, String[], String> ctl) {
        String ctl(int node, String... arguments) {
            return ctl.apply(prefix + node, arguments);
        }

        int port(int node) {
            return firstPort + node - 1;
        }
    }

    /** The 3.10.8 nodes: their ctl goes through a shell line, so each argument is quoted. */
    static final Cluster CLUSTER = new Cluster("c", 5701, (node, arguments) -> ClusterNodes.ctl(node,
            java.util.Arrays.stream(arguments).map(argument -> "'" + argument + "'").toArray(String[]::new)));

    static final String QUEUE = "dnd.work";
    static final String DEAD = QUEUE + ".dead";
    static final String CONNECTION = "dead-letter-node-down-" + ProcessHandle.current().pid();
    static final int MESSAGES = 200;
    static final int POISON = 10;

    /** One class at a time, whichever JVM runs it: the other cluster run stops nodes or counts on them. */
    @RegisterExtension
    @Order(0)
    static final ExclusiveResource exclusive = ExclusiveResource.named("cluster");

    @RegisterExtension
    @Order(1)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(DeadLetterQueueNodeDownTest::deadLetterQueueOnC1)
            .setAfterAllCustomizer(DeadLetterQueueNodeDownTest::deleteQueues)
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, ClusterNodes.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:guest@127.0.0.1")
            // Never c1: the application's connection stays up while c1 is down, and is cut on purpose.
            .overrideConfigKey("quarkus.rabbitmq-subscriber.addresses", "127.0.0.1:5702,127.0.0.1:5703")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "200ms")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.max-delay", "1s")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.refused-copy-pause", "500ms");

    @Inject
    Handler handler;

    /**
     * The dead-letter queue, classic, declared on c1 before the application starts (so c1 is its home node); RabbitMQ
     * told to try a dead letter's hop again after 2 s instead of its 3 minutes, which this test would otherwise wait
     * (read when the queue's leader starts, so set on every node first).
     */
    static void deadLetterQueueOnC1() {
        deadLetterQueueOnNode1(CLUSTER);
    }

    static void deleteQueues() {
        deleteQueues(CLUSTER);
    }

    static void deadLetterQueueOnNode1(Cluster cluster) {
        deleteQueues(cluster);
        hopRetry(cluster, 2_000);
        try (Connection connection = ClusterNodes.connect(cluster.port(1)); Channel channel = connection.createChannel()) {
            channel.queueDeclare(DEAD, true, false, false, null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static void deleteQueues(Cluster cluster) {
        for (int node = 1; node <= 3; node++) {
            cluster.ctl(node, "start_app");
        }
        hopRetry(cluster, 180_000);
        try (Connection connection = ClusterNodes.connect(cluster.port(3)); Channel channel = connection.createChannel()) {
            channel.queueDelete(QUEUE);
            channel.queueDelete(DEAD);
        } catch (Exception e) {
            // nothing to delete
        }
    }

    @Test
    void consumesItsQuorumQueueWhileItsDeadLetterQueuesNodeIsDown() throws Exception {
        consumesWhileNode1IsDown(CLUSTER, handler);
    }

    /** The proof, on either cluster (DeadLetterQueueNodeDownOn43Test runs it on 4.3.6). */
    static void consumesWhileNode1IsDown(Cluster cluster, Handler handler) throws Exception {
        publish(cluster, "before");
        await().atMost(Duration.ofSeconds(30)).until(() -> handler.handled().contains("before"));
        cluster.ctl(1, "stop_app");
        try {
            // A cut: the subscription subscribes again, checking its queues while node 1 is down.
            for (int node : List.of(2, 3)) {
                cluster.ctl(node, "list_connections", "pid", "client_properties").lines()
                        .filter(line -> line.contains("\"connection_name\",\"" + CONNECTION + "\""))
                        .forEach(line -> cluster.ctl(node, "close_connection", line.substring(0, line.indexOf('\t')),
                                "the test"));
            }
            publish(cluster, java.util.stream.IntStream.range(0, MESSAGES).mapToObj(i -> (i < POISON ? "poison-" : "m-") + i)
                    .toArray(String[]::new));
            await().atMost(Duration.ofSeconds(60)).until(() -> handler.handled().size() == MESSAGES + 1);
        } finally {
            cluster.ctl(1, "start_app");
        }
        // The dead letters waited in the work queue while their queue's node was away (RabbitMQ dead-letters a quorum
        // queue's at least once, as the subscription declares it): all of them reach it now, at RabbitMQ's next try.
        long back = System.nanoTime();
        await().atMost(Duration.ofSeconds(60)).until(() -> deadLetters(cluster) == POISON);
        System.out.printf("DEAD-LETTER-NODE-DOWN %d dead letters in their queue %d ms after its node came back%n",
                POISON, (System.nanoTime() - back) / 1_000_000);
        assertEquals(MESSAGES + 1 - POISON, handler.acked().size());
    }

    /**
     * RabbitMQ's wait before it tries again a quorum queue's dead letter its target did not confirm (the key of 3.x and
     * 4.x, and the one of later versions).
     */
    static void hopRetry(Cluster cluster, int millis) {
        for (int node = 1; node <= 3; node++) {
            cluster.ctl(node, "eval", "application:set_env(rabbit, dead_letter_worker_publisher_confirm_timeout, "
                    + millis + "), application:set_env(rabbit, dead_letter_worker_publisher_confirm_timeout_ms, "
                    + millis + ").");
        }
    }

    static void publish(Cluster cluster, String... bodies) throws Exception {
        try (Connection connection = ClusterNodes.connect(cluster.port(3)); Channel channel = connection.createChannel()) {
            channel.confirmSelect();
            for (String body : bodies) {
                channel.basicPublish("", QUEUE, new AMQP.BasicProperties.Builder().messageId(body).deliveryMode(2)
                        .build(), body.getBytes(StandardCharsets.UTF_8));
            }
            channel.waitForConfirmsOrDie(10_000);
        }
    }

    static long deadLetters(Cluster cluster) throws Exception {
        try (Connection connection = ClusterNodes.connect(cluster.port(3)); Channel channel = connection.createChannel()) {
            return channel.messageCount(DEAD);
        }
    }

    @ApplicationScoped
    public static class Handler {
        final Set<String> handled = ConcurrentHashMap.newKeySet();
        final Set<String> acked = ConcurrentHashMap.newKeySet();

        // Through methods: a test holds the bean's client proxy, whose own fields are empty.
        Set<String> handled() {
            return handled;
        }

        Set<String> acked() {
            return acked;
        }

        @Subscriber(value = QUEUE, type = QueueType.QUORUM, maxAttempts = 3, deadLetter = DEAD)
        Outcome handle(String body) {
            handled.add(body);
            if (body.startsWith("poison-")) {
                return Outcome.deadLetter("poison");
            }
            acked.add(body);
            return Outcome.ack();
        }
    }
}
