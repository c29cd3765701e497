package org.acme.subscriber.test.brokers;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkus.test.QuarkusUnitTest;

/**
 * One application on two RabbitMQs of different generations: it consumes from RabbitMQ 3.10.8 (127.0.0.1:5672, the
 * default broker) and sends each message's output to RabbitMQ 4.3.6 (127.0.0.1:5692, the broker named {@code out}),
 * where it consumes them too. Mid-run the subscribers' connection to 3.10.8 is cut, then the publishing connection
 * to 4.3.6, then the subscribers' connection to 4.3.6: every message arrives on 4.3.6 (a message whose output was sent
 * before a cut and whose ack was lost in it arrives twice; none is missing).
 * <p>
 * Needs both brokers; skipped, saying so, where one does not answer (the README's test command on a machine without
 * them), failing instead under {@code -Drabbitmq.test.required=true} (.ci/run starts both).
 */
@EnabledIf(value = "bothAnswerOrRequired", disabledReason = "needs RabbitMQ 3.10 on 127.0.0.1:5672 and RabbitMQ 4.3 "
        + "on 127.0.0.1:5692 (.ci/rabbitmq43 start): run .ci/run, or start both")
class OutputsToAnotherRabbitMqTest {

    private static final Logger LOG = Logger.getLogger(OutputsToAnotherRabbitMqTest.class);

    static final int MESSAGES = 3_000;
    static final String IN = "nb2.in";
    static final String OUT = "nb2.out";
    static final int OLD_PORT = 5672;
    static final int NEW_PORT = 5692;
    static final String CONNECTION = "nb2-" + ProcessHandle.current().pid();

    @RegisterExtension
    @Order(1)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(OutputsToAnotherRabbitMqTest::deleteQueues)
            .setAfterAllCustomizer(OutputsToAnotherRabbitMqTest::deleteQueues)
            .withApplicationRoot(jar -> jar.addClasses(Relay.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:guest@127.0.0.1:" + OLD_PORT)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.brokers.out.url", "amqp://guest:guest@127.0.0.1:" + NEW_PORT)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "500ms")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.brokers.out.recovery.initial-delay", "500ms")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.refused-copy-pause", "200ms")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.prefetch", "50");

    @Inject
    Relay relay;

    static boolean bothAnswerOrRequired() {
        return Boolean.getBoolean("rabbitmq.test.required") || version(OLD_PORT) != null && version(NEW_PORT) != null;
    }

    @Test
    void everyOutputArrivesOnTheOtherBrokerThroughCutsOnEachSide() throws Exception {
        String old = version(OLD_PORT);
        String current = version(NEW_PORT);
        assertTrue(old != null && old.startsWith("3.10"), "RabbitMQ 3.10 on " + OLD_PORT + ": " + old);
        assertTrue(current != null && current.startsWith("4.3"), "RabbitMQ 4.3 on " + NEW_PORT + ": " + current);
        try (Connection connection = connect(OLD_PORT); Channel channel = connection.createChannel()) {
            channel.confirmSelect();
            for (int i = 0; i < MESSAGES; i++) {
                channel.basicPublish("", IN, true, new AMQP.BasicProperties.Builder().messageId("m-" + i)
                        .deliveryMode(2).build(), String.valueOf(i).getBytes(StandardCharsets.UTF_8));
            }
            channel.waitForConfirmsOrDie(30_000);
        }
        List<String> cuts = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> relay.arrived.size() >= MESSAGES / 4);
        cuts.add(cut(List.of("rabbitmqctl", "-q"), CONNECTION));
        await().atMost(Duration.ofSeconds(60)).until(() -> relay.arrived.size() >= MESSAGES / 2);
        cuts.add(cut(newBrokerCtl(), CONNECTION + "-out-publisher"));
        await().atMost(Duration.ofSeconds(60)).until(() -> relay.arrived.size() >= 3 * MESSAGES / 4);
        cuts.add(cut(newBrokerCtl(), CONNECTION + "-out"));
        await().atMost(Duration.ofSeconds(120)).until(() -> relay.arrived.size() == MESSAGES);
        int duplicates = relay.received.get() - MESSAGES;
        LOG.infof("TWO-BROKERS %d messages from RabbitMQ %s through outputs to RabbitMQ %s, cuts %s: none missing, "
                + "%d duplicate(s)", MESSAGES, old, current, cuts, duplicates);
        for (int i = 0; i < MESSAGES; i++) {
            assertTrue(relay.arrived.contains(String.valueOf(i)), "message " + i + " is missing");
        }
        assertEquals(MESSAGES, relay.arrived.size());
    }

    /** Consumes on 3.10.8, sends on to 4.3.6; counts what arrives there. */
    @Singleton
    public static class Relay {
        final Set<String> arrived = ConcurrentHashMap.newKeySet();
        final AtomicInteger received = new AtomicInteger();

        @Subscriber(IN)
        void relay(String number, Outputs outputs) {
            outputs.send(OutgoingMessage.toQueue(OUT).payload(number).broker("out"));
        }

        @Subscriber(value = OUT, broker = "out")
        void arrived(String number) {
            received.incrementAndGet();
            arrived.add(number);
        }
    }

    /** Closes the connections of that name on the broker rabbitmqctl reaches; answers what it cut. */
    private static String cut(List<String> ctl, String name) throws Exception {
        List<String> lines = RabbitAdmin.ctl(ctl, "list_connections", "pid", "client_properties").lines()
                .filter(line -> line.contains("\"connection_name\",\"" + name + "\"")).toList();
        assertTrue(!lines.isEmpty(), "no connection named " + name);
        for (String line : lines) {
            RabbitAdmin.ctl(ctl, "close_connection", line.substring(0, line.indexOf('\t')), "cut by the test");
        }
        return name;
    }

    /** rabbitmqctl of the 4.3.6 node, inside its root. */
    private static List<String> newBrokerCtl() {
        Path script = Path.of("..", ".ci", "rabbitmq43").toAbsolutePath().normalize();
        return List.of(script.toString(), "ctl");
    }

    private static Connection connect(int port) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost("127.0.0.1");
        factory.setPort(port);
        factory.setConnectionTimeout(3_000);
        return factory.newConnection("nb2-test");
    }

    /** The version the broker on that port announces, or null when none answers. */
    private static String version(int port) {
        try (Connection connection = connect(port)) {
            Map<String, Object> properties = connection.getServerProperties();
            return String.valueOf(properties.get("version"));
        } catch (Exception e) {
            return null;
        }
    }

    static void deleteQueues() {
        for (int port : new int[] { OLD_PORT, NEW_PORT }) {
            try (Connection connection = connect(port); Channel channel = connection.createChannel()) {
                channel.queueDelete(IN);
                channel.queueDelete(OUT);
            } catch (Exception e) {
                // Not there, or that broker does not answer (the test then fails saying which).
            }
        }
    }
}
