package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The broker drops the connection (as on a restart or a network cut), three times: each time the runtime reconnects,
 * its consumers come back, and nothing published before, during or after the cut is lost. Recovery has one owner: an
 * operator reads one WARN per cut and one INFO once every subscriber consumes again, and no ERROR (amqp-client's own
 * topology recovery, now off, logged one per queue). The connection is closed the way an operator would, with
 * rabbitmqctl.
 */
@Tag("wire")
class ConnectionRecoveryTest {

    static final String QUEUE = "t.recovery";
    static final String OTHER = "t.recovery.other";
    static final String CONNECTION = "recovery-test-" + ProcessHandle.current().pid();
    static final int PER_PHASE = 300;

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE, OTHER).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, CapturedLogs.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION);

    @Inject
    Handler handler;

    @Test
    void consumesAgainAfterEachCutLosingNothingAndLoggingOnceEach() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            int sent = 0;
            for (int cut = 1; cut <= 3; cut++) {
                sent = publish(sent, "before-" + cut);
                closeConnection(CONNECTION);
                sent = publish(sent, "after-" + cut);
                int expectedInfos = cut;
                await().atMost(Duration.ofSeconds(30)).until(() -> recovered(logs) == expectedInfos);
                int expected = sent;
                await().atMost(Duration.ofSeconds(30)).until(() -> handler.received.size() == expected);
            }
            RabbitAdmin.with(admin -> await().until(() -> admin.depth(QUEUE) == 0 && admin.depth(OTHER) == 0));

            assertEquals(List.of(), logs.errors(), "no ERROR on a cut");
            List<String> warnings = logs.warnings();
            assertEquals(3, warnings.size(), () -> "one WARN per cut: " + warnings);
            warnings.forEach(warning -> assertTrue(warning.contains("Lost the connection to RabbitMQ at"), warning));
            assertEquals(3, recovered(logs));
        }
    }

    private static long recovered(CapturedLogs logs) {
        return logs.infos().stream()
                .filter(m -> m.contains("every subscriber consumes again") && m.contains(QUEUE) && m.contains(OTHER))
                .count();
    }

    /** Publishes half the phase's messages to each queue; returns how many were published in all. */
    private static int publish(int sent, String phase) {
        RabbitAdmin.with(admin -> {
            for (int i = 0; i < PER_PHASE / 2; i++) {
                admin.publish(QUEUE, phase + "-" + i);
                admin.publish(OTHER, phase + "-" + i);
            }
        });
        return sent + PER_PHASE;
    }

    /** Closes the broker side of the connection with this client-provided name. */
    static void closeConnection(String name) throws Exception {
        List<String> connections = RabbitAdmin.connectionsNamed(name);
        if (connections.size() != 1) {
            throw new AssertionError("expected one connection named " + name + ", found " + connections);
        }
        String pid = connections.get(0).substring(0, connections.get(0).indexOf('	'));
        RabbitAdmin.rabbitmqctl("close_connection", pid, "closed by test");
    }

    public static class Handler {
        /** Queue and body: a redelivery of a message handled before the cut counts once. */
        final Set<String> received = ConcurrentHashMap.newKeySet();

        @Subscriber(QUEUE)
        void handle(String body) {
            received.add(QUEUE + ":" + body);
        }

        @Subscriber(OTHER)
        void other(String body) {
            received.add(OTHER + ":" + body);
        }
    }
}
