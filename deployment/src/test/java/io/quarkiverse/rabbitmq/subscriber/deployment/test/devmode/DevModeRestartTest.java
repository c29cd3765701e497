package io.quarkiverse.rabbitmq.subscriber.deployment.test.devmode;

import static io.restassured.RestAssured.get;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.deployment.test.RabbitAdmin;
import io.quarkus.test.QuarkusDevModeTest;

/**
 * Live reload: after a change to the handler, the new code consumes, and the old consumer and connection are gone
 * (one consumer on the queue, one connection with the application's name on the broker).
 */
class DevModeRestartTest {

    static final String QUEUE = "t.devmode";
    static final String CONNECTION = "devmode-test-" + ProcessHandle.current().pid();

    @RegisterExtension
    static final QuarkusDevModeTest dev = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClass(DevModeSubscriber.class)
                    .addAsResource(new org.jboss.shrinkwrap.api.asset.StringAsset(
                            "quarkus.rabbitmq-subscriber.url=" + RabbitAdmin.URL + "\n"
                                    + "quarkus.rabbitmq-subscriber.connection-name=" + CONNECTION + "\n"
                                    + "quarkus.devservices.enabled=false\n"),
                            "application.properties"));

    @BeforeAll
    static void cleanQueue() {
        RabbitAdmin.with(admin -> admin.drainIfExists(QUEUE));
    }

    @AfterAll
    static void deleteQueue() {
        RabbitAdmin.with(admin -> admin.delete(QUEUE));
    }

    @Test
    void aChangedHandlerTakesOverWithoutLeakingConsumersOrConnections() throws Exception {
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "a"));
        await().until(() -> get("/received").asString().contains("v1:a"));

        dev.modifySourceFile(DevModeSubscriber.class, source -> source.replace("\"v1:\"", "\"v2:\""));
        // The request triggers the restart; the new application starts with an empty list.
        await().until(() -> !get("/received").asString().contains("v1:a"));
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "b"));
        await().until(() -> get("/received").asString().contains("v2:b"));

        RabbitAdmin.with(admin -> assertEquals(1, admin.consumers(QUEUE), "one consumer after the restart"));
        await().atMost(Duration.ofSeconds(10)).until(() -> connectionsNamed(CONNECTION) == 1);
    }

    /** Counts the broker's connections with this client-provided name, as an operator would with rabbitmqctl. */
    static long connectionsNamed(String name) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("rabbitmqctl", "-q", "list_connections", "client_properties")
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return output.lines().filter(line -> line.contains("\"connection_name\",\"" + name + "\"")).count();
    }
}
