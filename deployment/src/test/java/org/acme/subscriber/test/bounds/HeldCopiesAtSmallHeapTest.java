package org.acme.subscriber.test.bounds;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusProdModeTest;

/**
 * The packaged application at {@code -Xmx64m}, with the default bounds, on a backlog of 100,000 messages of 2 KiB
 * (200 MiB) that each answer {@code retryAfter(1 h)}: held in the service without a bound, they would not fit the heap
 * three times over. The byte bound (a twentieth of the heap) holds the subscriber back after about 1,600 copies; the
 * process lives on, the backlog stays in RabbitMQ, and a graceful stop publishes every held copy back, so the queue
 * holds all 100,000 again.
 */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class HeldCopiesAtSmallHeapTest {

    static final String QUEUE = "t.held.smallheap";
    static final int MESSAGES = 100_000;
    static final int BODY = 2_048;
    static final Path LOG = Path.of("target", "held-copies-small-heap.log").toAbsolutePath();

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).before(admin -> {
        admin.declare(QUEUE, Map.of());
        admin.confirmPublishes();
        byte[] body = new byte[BODY];
        for (int i = 0; i < MESSAGES; i++) {
            admin.publishRaw(QUEUE, body, new AMQP.BasicProperties.Builder().messageId("m-" + i).build());
        }
        admin.awaitConfirms();
    });

    @RegisterExtension
    @Order(2)
    static final QuarkusProdModeTest app = new QuarkusProdModeTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .setApplicationName("held-copies-small-heap")
            .setApplicationVersion("0.1")
            .setRun(true)
            // The deployment module's test classpath builds the HTTP server in: its runtime must be in the jar too.
            .setForcedDependencies(List.of(io.quarkus.maven.dependency.Dependency.of("io.quarkus", "quarkus-vertx-http",
                    io.quarkus.builder.Version.getVersion())))
            .setJVMArgs(List.of("-Xmx64m", "-XX:+ExitOnOutOfMemoryError"))
            // Its own process: the fixture's system property does not reach it, so the URL goes in its configuration.
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", WireBroker.URL)
            .overrideConfigKey("quarkus.http.port", "0")
            .overrideConfigKey("quarkus.log.file.enabled", "true")
            .overrideConfigKey("quarkus.log.file.path", LOG.toString());

    @Test
    void theHeapHoldsWhileTheBacklogWaitsInRabbitMqAndAStopLosesNothing() throws Exception {
        // It takes deliveries until the byte bound (64 MiB / 20 = 3.2 MiB: about 1,600 of these) holds it back.
        await().atMost(Duration.ofSeconds(60)).until(() -> log().contains("stops taking deliveries"));
        // Held back: the rest stays in RabbitMQ, however long it runs (the bound, a prefetch of 250 and what arrives
        // while the consumer is being cancelled).
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(8))
                .until(() -> RabbitAdmin.withResult(admin -> admin.depth(QUEUE)) >= MESSAGES - 2_500);
        String log = log();
        assertFalse(log.contains("OutOfMemoryError"), log);
        assertEquals(1, log.split("stops taking deliveries", -1).length - 1, "one WARN");

        // A graceful stop publishes the held copies back: nothing was lost.
        app.stop();
        assertFalse(log().contains("OutOfMemoryError"));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> RabbitAdmin.withResult(admin -> admin.depth(QUEUE)) == MESSAGES);
        assertTrue(log().contains("stops taking deliveries"));
    }

    private static String log() throws Exception {
        return Files.exists(LOG) ? Files.readString(LOG, StandardCharsets.UTF_8) : "";
    }

    public static class Handlers {
        @Subscriber(QUEUE)
        Outcome handle(byte[] body) {
            return Outcome.retryAfter(Duration.ofHours(1));
        }
    }
}
