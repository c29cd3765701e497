package org.acme.subscriber.test.partitions;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.Subscriptions;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Two instances share four quorum partitions on RabbitMQ 4: another instance (played here by a plain client that beats
 * as the extension does) consumed every partition first, so it was active on all four; the application, once it has
 * listened for a liveness window, claims its share, partitions 1 and 3 (its id sorts second), and RabbitMQ hands them
 * over: from then on the application handles what partitions 1 and 3 receive, the other instance partitions 0 and 2.
 * On RabbitMQ 3.10 single active consumer ignores priorities, and the test does not run there.
 */
@Tag("wire")
class PartitionSpreadingOnRabbitMqTest {

    static final String LEDGER = "t.spread.ledger";
    static final String[] QUEUES = { LEDGER + ".0", LEDGER + ".1", LEDGER + ".2", LEDGER + ".3" };
    static final Map<String, Object> PARTITION = Map.of("x-queue-type", "quorum", "x-single-active-consumer", true);
    /**
     * What the other instance received. Shared through the system properties: QuarkusUnitTest loads this class again
     * for the test, and the other instance starts before it, from JUnit's copy.
     */
    @SuppressWarnings("unchecked")
    static final Set<String> otherGot = (Set<String>) System.getProperties()
            .computeIfAbsent("t.spread.other.got", key -> ConcurrentHashMap.newKeySet());
    /** What the other instance received, in order, as bodies. */
    @SuppressWarnings("unchecked")
    static final List<String> otherBodies = (List<String>) System.getProperties()
            .computeIfAbsent("t.spread.other.bodies", key -> new java.util.concurrent.CopyOnWriteArrayList<String>());
    /** Stops the other instance (from either copy of this class). */
    static final String STOP_OTHER = "t.spread.other.stop";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUES).exchanges(LEDGER, LEDGER + ".members").givesUrl()
            .needsPlugin(WireBroker.Plugin.CONSISTENT_HASH)
            .before(admin -> otherInstanceFirst());

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.instance-id", "instance-b");

    /** The other instance: consumes every partition before the application starts, and beats as "instance-a". */
    static void otherInstanceFirst() throws Exception {
        if (!WireBroker.isRabbitMq4()) {
            return;
        }
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(WireBroker.URL);
        Connection other = factory.newConnection("t-spread-other");
        Channel channel = other.createChannel();
        channel.exchangeDeclare(LEDGER + ".members", "fanout", true);
        for (String queue : QUEUES) {
            channel.queueDeclare(queue, true, false, false, PARTITION);
            channel.basicConsume(queue, true, new DefaultConsumer(channel) {
                @Override
                public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties,
                        byte[] body) {
                    otherGot.add(envelope.getRoutingKey());
                    otherBodies.add(new String(body, StandardCharsets.UTF_8));
                }
            });
        }
        Channel beat = other.createChannel();
        ScheduledExecutorService beats = Executors.newSingleThreadScheduledExecutor();
        System.getProperties().put(STOP_OTHER, (Runnable) () -> {
            beats.shutdownNow();
            try {
                other.close();
            } catch (Exception e) {
                // gone already
            }
        });
        beats.scheduleAtFixedRate(() -> {
            try {
                beat.basicPublish(LEDGER + ".members", "", null, "instance-a\n".getBytes(StandardCharsets.UTF_8));
            } catch (Exception e) {
                // closed at the end
            }
        }, 0, 500, TimeUnit.MILLISECONDS);
    }

    @AfterAll
    static void stopTheOther() {
        Object stop = System.getProperties().remove(STOP_OTHER);
        if (stop instanceof Runnable runnable) {
            runnable.run();
        }
    }

    @Inject
    Handlers handlers;

    @Inject
    SubscriberStatus status;

    @Inject
    Subscriptions subscriptions;

    @Test
    void theApplicationTakesItsShareOfThePartitionsOver() throws Exception {
        Assumptions.assumeTrue(WireBroker.isRabbitMq4(), "single active consumer honours priorities on RabbitMQ 4");
        await().atMost(Duration.ofSeconds(30)).until(() -> status.activePartitions(LEDGER).equals(List.of(1, 3)));
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(WireBroker.URL);
        try (Connection connection = factory.newConnection("t-spread-publisher");
                Channel channel = connection.createChannel()) {
            // Until the broker has switched: a consumer added with a higher priority becomes active once RabbitMQ
            // sees the one before has nothing unsettled.
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                otherGot.clear();
                handlers.got.clear();
                for (String queue : QUEUES) {
                    channel.basicPublish("", queue, null, queue.getBytes(StandardCharsets.UTF_8));
                }
                await().atMost(Duration.ofSeconds(5)).until(() -> {
                    Set<String> reached = new java.util.HashSet<>(otherGot);
                    reached.addAll(handlers.got);
                    return reached.size() == 4;
                });
                return handlers.got.equals(Set.of(LEDGER + ".1", LEDGER + ".3"))
                        && otherGot.equals(Set.of(LEDGER + ".0", LEDGER + ".2"));
            });
        }
        assertEquals(Set.of(LEDGER + ".0", LEDGER + ".2"), otherGot);
        assertEquals(List.of("instance-a", "instance-b"), status.partitionInstances(LEDGER));
        // Paused, the application closes partition 1's channel rather than cancel its consumer: what it holds (a
        // retry waiting in place, and the message behind it) goes back first of the queue, in order, and the other
        // instance, active at once, receives them in that order. Cancelled, the held retry would have stayed here
        // while the other instance went on with the message behind it.
        try (Connection connection = factory.newConnection("t-spread-publisher-2");
                Channel channel = connection.createChannel()) {
            handlers.bodies.clear();
            channel.basicPublish("", LEDGER + ".1", null, "hold".getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(10)).until(() -> handlers.bodies.contains("hold"));
            channel.basicPublish("", LEDGER + ".1", null, "next".getBytes(StandardCharsets.UTF_8));
            otherBodies.clear();
            subscriptions.pause(LEDGER + ".1");
            await().atMost(Duration.ofSeconds(20)).until(() -> otherBodies.size() >= 2);
            assertEquals(List.of("hold", "next"), otherBodies);
            assertEquals(List.of("hold"), handlers.bodies, "nothing handled here after the pause");
            subscriptions.resume(LEDGER + ".1");
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                handlers.got.clear();
                otherGot.clear();
                channel.basicPublish("", LEDGER + ".1", null, "resumed".getBytes(StandardCharsets.UTF_8));
                await().atMost(Duration.ofSeconds(5)).until(() -> !otherGot.isEmpty() || !handlers.got.isEmpty());
                return handlers.got.equals(Set.of(LEDGER + ".1"));
            });
        }
    }

    @Singleton
    public static class Handlers {
        final Set<String> got = ConcurrentHashMap.newKeySet();

        final List<String> bodies = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Subscriber(value = LEDGER, partitions = 4, type = QueueType.QUORUM)
        Outcome post(String entry, Delivery delivery) {
            got.add(delivery.queue());
            bodies.add(entry);
            // Held in place, its partition waiting behind it, until the pause lets it go.
            return entry.equals("hold") ? Outcome.retryAfter(Duration.ofMinutes(5)) : Outcome.ack();
        }
    }
}
