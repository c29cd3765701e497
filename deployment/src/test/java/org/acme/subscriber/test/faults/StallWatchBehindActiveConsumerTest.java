package org.acme.subscriber.test.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.acme.subscriber.test.CapturedLogs;
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
import com.rabbitmq.client.GetResponse;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The stall watch's known false positive, on a real broker, and that it costs nothing but a WARN: a queue with a single
 * active consumer, another service's consumer active on it and far slower than the publisher (it holds one message and
 * never acks it). This application's consumer waits; the queue's ready count never goes down, and the watch (2 s) takes
 * it for a stall: it consumes again on a fresh channel, still waiting. When the other consumer goes, this one takes over: every
 * message is handled once, by one or
 * the other, none lost, none twice.
 */
@Tag("wire")
class StallWatchBehindActiveConsumerTest {

    static final String QUEUE = "t.stall.behind-active";
    /** What the other service handled: its consumer copies each body here (this class's statics are per class loader). */
    static final String OTHER = "t.stall.behind-active.other";
    static final String OTHER_CONNECTION = "t-stall-other-service";
    static final int MESSAGES = 60;

    /** The other service: declared first, consuming first, so RabbitMQ makes it the active consumer. */
    @RegisterExtension
    @Order(0)
    static final WireBroker broker = WireBroker.queues(QUEUE, OTHER).givesUrl().before(admin -> {
        admin.declare(QUEUE, Map.of("x-single-active-consumer", true));
        admin.declare(OTHER, Map.of());
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(WireBroker.URL);
        Connection other = factory.newConnection(OTHER_CONNECTION);
        Channel channel = other.createChannel();
        channel.basicQos(1);
        // It takes one message and holds it: a consumer far slower than the publisher, still the active one.
        channel.basicConsume(QUEUE, false, new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                    throws java.io.IOException {
                channel.basicPublish("", OTHER, null, body);
            }
        });
    });

    @RegisterExtension
    @Order(1)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, CapturedLogs.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.stall-timeout", "2s")
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.quarkiverse.rabbitmq.subscriber")
                    && String.valueOf(record.getMessage()).contains("Consuming again on a fresh channel"))
            .assertLogRecords(records -> assertTrue(!records.isEmpty() && records.size() <= 3,
                    () -> "the waiting consumer taken for stalled, a few times at most (the wait doubles): "
                            + records.size()));

    @Inject
    Handler handler;

    @Test
    void theWaitingConsumerConsumesAgainHarmlesslyAndTakesOverWhenTheActiveOneGoes() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> {
                for (int i = 0; i < MESSAGES; i++) {
                    admin.publish(QUEUE, "m" + i);
                }
            });
            // The ready count stays where it is: the watch (2 s, looking every second) takes this consumer for stalled.
            await().atMost(Duration.ofSeconds(15)).until(() -> logs.warnings().stream()
                    .anyMatch(line -> line.contains("queue '" + QUEUE + "' kept") && line.contains("fresh channel")));
        }
        assertEquals(List.of(), handler.received, "still waiting behind the active consumer");
        // The other service goes (what it held unacked comes back to this one).
        String connection = RabbitAdmin.connectionsNamed(OTHER_CONNECTION).get(0);
        RabbitAdmin.rabbitmqctl("close_connection", connection.substring(0, connection.indexOf('\t')), "the test");
        await().atMost(Duration.ofSeconds(30)).until(() -> RabbitAdmin.withResult(admin -> admin.depth(QUEUE) == 0
                && handler.received.size() + admin.depth(OTHER) >= MESSAGES));
        Set<String> all = new HashSet<>(handler.received);
        assertEquals(handler.received.size(), all.size(), () -> "handled twice here: " + handler.received);
        RabbitAdmin.with(admin -> {
            for (GetResponse response : admin.drain(OTHER)) {
                all.add(RabbitAdmin.body(response));
            }
        });
        assertEquals(MESSAGES, all.size(), "every message handled, by one or the other");
    }

    @Singleton
    public static class Handler {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Subscriber(value = QUEUE, arguments = "x-single-active-consumer=true")
        void handle(String body) {
            received.add(body);
        }
    }
}
