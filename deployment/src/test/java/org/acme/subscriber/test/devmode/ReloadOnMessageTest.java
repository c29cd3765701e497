package org.acme.subscriber.test.devmode;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testsupport.ExclusiveResource;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusDevModeTest;

/**
 * Dev mode with an application that only consumes messages (no HTTP route, and the test sends no HTTP request): a
 * message alone triggers the reload. Three edits of the handler (or {@code -Dtests.reload-edits}) each take effect on
 * the next message; then a subscriber is removed and another added. The broker shows one connection, and one consumer
 * per subscriber, at the end.
 */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class ReloadOnMessageTest {

    static final String[] QUEUES = { "t.reload.in", "t.reload.out", "t.reload.extra", "t.reload.added" };
    static final String CONNECTION = "reload-test-" + ProcessHandle.current().pid();

    /** One class at a time, whichever JVM runs it: dev mode's HTTP port is 8080 for each. */
    @RegisterExtension
    @Order(0)
    static final ExclusiveResource exclusive = ExclusiveResource.named("devmode");

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUES);

    @RegisterExtension
    @Order(2)
    static final QuarkusDevModeTest dev = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClass(MessagingOnlyApp.class)
                    .addAsResource(new org.jboss.shrinkwrap.api.asset.StringAsset(
                            "quarkus.rabbitmq-subscriber.url=" + WireBroker.URL + "\n"
                                    + "quarkus.rabbitmq-subscriber.connection-name=" + CONNECTION + "\n"
                                    + "quarkus.devservices.enabled=false\n"),
                            "application.properties"));

    /** Each edit costs a scan, a compile and a restart (3-4 s here); ten found nothing that three did not. */
    static final int EDITS = Integer.getInteger("tests.reload-edits", 3);

    static final List<String> answers = new CopyOnWriteArrayList<>();
    static final AtomicInteger sent = new AtomicInteger();

    @BeforeAll
    static void cleanQueues() {
        RabbitAdmin.with(admin -> {
            admin.drainIfExists("t.reload.in");
            admin.drainIfExists("t.reload.out");
            admin.declare("t.reload.out", java.util.Map.of());
        });
    }

    @Test
    void aMessageAloneReloadsTheApplication() throws Exception {
        await().atMost(Duration.ofSeconds(30)).until(() -> answered("v0:"));
        for (int version = 1; version <= EDITS; version++) {
            String from = "\"v" + (version - 1) + ":\"";
            String to = "\"v" + version + ":\"";
            dev.modifySourceFile(MessagingOnlyApp.class, source -> source.replace(from, to));
            String expected = "v" + version + ":";
            // A scan runs at most every 2 s: messages sent before it are handled by the old code.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> answered(expected));
        }
        dev.modifySourceFile(MessagingOnlyApp.class, source -> source.replace("\"t.reload.extra\"", "\"t.reload.added\""));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
            answered("v" + EDITS + ":");
            return RabbitAdmin.withResult(admin -> admin.exists("t.reload.added") && admin.consumers("t.reload.added") == 1);
        });
        RabbitAdmin.with(admin -> {
            assertEquals(1, admin.consumers("t.reload.in"), "one consumer after the reloads");
            assertEquals(0, admin.consumers("t.reload.extra"), "the removed subscriber consumes no more");
            assertEquals(1, admin.consumers("t.reload.added"));
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> RabbitAdmin.connectionsNamed(CONNECTION).size() == 1);
        // No message was lost across the reloads: each one sent got an answer, from one version or another.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
            RabbitAdmin.with(admin -> admin.drain("t.reload.out").forEach(r -> answers.add(RabbitAdmin.body(r))));
            java.util.Set<String> answered = new java.util.HashSet<>();
            answers.forEach(answer -> answered.add(answer.substring(answer.indexOf(':') + 1)));
            return answered.size() == sent.get();
        });
    }

    /** Sends one message and reads what came back; true once an answer starts with the prefix. */
    static boolean answered(String prefix) {
        RabbitAdmin.with(admin -> {
            admin.publish("t.reload.in", "m" + sent.incrementAndGet());
            admin.drain("t.reload.out").forEach(response -> answers.add(RabbitAdmin.body(response)));
        });
        return answers.stream().anyMatch(answer -> answer.startsWith(prefix));
    }
}
