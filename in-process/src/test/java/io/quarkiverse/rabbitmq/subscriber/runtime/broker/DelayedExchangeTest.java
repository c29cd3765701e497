package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;

/**
 * The x-delayed-message exchange: a message waits its x-delay, then routes as the x-delayed-type says, and a short
 * delay never waits behind a long one. The in-process broker is checked on its own; the comparison with a server runs
 * only where the server has the rabbitmq_delayed_message_exchange plugin.
 */
@Tag("wire")
@Tag("plugin")
class DelayedExchangeTest {

    /**
     * The in-process broker's plugin follows RabbitMQ 4.0's, the last generation where the plugin runs: on 4.3 (where
     * the real broker has none and these scenarios are skipped) the in-process one emulates it as 4.0 does.
     */
    static InProcessServer.Version withPlugin() {
        return Target.Real.EMULATED == InProcessServer.Version.V4_3 ? InProcessServer.Version.V4 : Target.Real.EMULATED;
    }

    static final BrokerConformanceTest.Scenario DELAYS = run -> {
        String exchange = run.exchange("delayed");
        String queue = run.queue("q");
        run.declare(queue, Map.of());
        run.channel.declareExchange(exchange, "x-delayed-message", true, false, Map.of("x-delayed-type", "direct"));
        run.channel.bindQueue(queue, exchange, "k", Map.of());
        // The real server's hold starts after both publishes and polls every 20 ms: the short delay leaves it 600 ms
        // of room, as a loaded CI machine needs (50 ms was not enough there).
        run.publish(exchange, "k", "long", delayed(3000));
        run.publish(exchange, "k", "short", delayed(800));
        run.target.holdsFor(Duration.ofMillis(200), () -> run.depth(queue) == 0);
        run.elapse(Duration.ofMillis(600));
        run.drain("first", queue, 1);
        run.elapse(Duration.ofMillis(2200));
        run.drain("then", queue, 1);
    };

    static AMQP.BasicProperties delayed(int millis) {
        return new AMQP.BasicProperties.Builder().headers(Map.of("x-delay", millis)).build();
    }

    @Test
    void inProcessDelaysEachMessageByItsOwnDelay() throws Exception {
        List<String> transcript = BrokerConformanceTest
                .transcript(new Target.InProcess(withPlugin()), DELAYS);
        assertEquals(2, transcript.size(), String.join("\n", transcript));
        assertEquals(true, transcript.get(0).startsWith("first: ") && transcript.get(0).contains("body=short"),
                transcript.get(0));
        assertEquals(true, transcript.get(1).startsWith("then: ") && transcript.get(1).contains("body=long"),
                transcript.get(1));
    }

    /** What the plugin does, and so must the in-process broker: no delay routes at once; a delayed mandatory returns. */
    static final BrokerConformanceTest.Scenario IMMEDIATE_AND_MANDATORY = run -> {
        String exchange = run.exchange("delayed");
        String queue = run.queue("q");
        run.declare(queue, Map.of());
        run.channel.declareExchange(exchange, "x-delayed-message", true, false, Map.of("x-delayed-type", "direct"));
        run.channel.bindQueue(queue, exchange, "k", Map.of());
        run.publish(exchange, "k", "no delay", new AMQP.BasicProperties());
        run.publish(exchange, "k", "zero delay", delayed(0));
        run.drain("immediate", queue, 2);
        BrokerChannel confirming = run.connection.createChannel();
        List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        confirming.confirmSelect(new PublishListener() {
            @Override
            public void acked(long sequenceNumber, boolean multiple) {
                events.add("ack " + sequenceNumber);
            }

            @Override
            public void nacked(long sequenceNumber, boolean multiple) {
                events.add("nack " + sequenceNumber);
            }

            @Override
            public void returned(int replyCode, String replyText, String exchangeName, String routingKey,
                    AMQP.BasicProperties properties, byte[] body) {
                events.add("return " + replyCode + " " + replyText);
            }
        });
        confirming.publish(exchange, "k", true, delayed(100), Transcript.utf8("delayed mandatory"));
        run.target.await(() -> events.size() == 2);
        events.forEach(run::note);
        run.elapse(Duration.ofMillis(100));
        run.drain("delivered anyway", queue, 1);
    };

    @Test
    void inProcessRoutesAtOnceWithoutDelayAndReturnsADelayedMandatoryPublish() throws Exception {
        List<String> transcript = BrokerConformanceTest
                .transcript(new Target.InProcess(withPlugin()), IMMEDIATE_AND_MANDATORY);
        String text = String.join("\n", transcript);
        assertEquals(5, transcript.size(), text);
        assertEquals(true, transcript.get(0).contains("body=no delay"), text);
        assertEquals(true, transcript.get(1).contains("body=zero delay"), text);
        assertEquals("return 312 NO_ROUTE", transcript.get(2), text);
        assertEquals("ack 1", transcript.get(3), text);
        assertEquals(true, transcript.get(4).contains("body=delayed mandatory"), text);
    }

    @Test
    void sameAsAServerWithThePlugin() throws Exception {
        // Debian's 3.10.8 does not ship the plugin: there only the in-process broker's delayed exchange is tested.
        WireBroker.assumePlugin(WireBroker.Plugin.DELAYED_MESSAGE);
        for (BrokerConformanceTest.Scenario scenario : List.of(DELAYS, IMMEDIATE_AND_MANDATORY)) {
            List<String> real = BrokerConformanceTest.transcript(new Target.Real(), scenario);
            List<String> inProcess = BrokerConformanceTest
                    .transcript(new Target.InProcess(withPlugin()), scenario);
            assertEquals(String.join("\n", real), String.join("\n", inProcess));
        }
    }
}
