package org.acme.subscriber.test.devmode;

import static io.restassured.RestAssured.get;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

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
 * Live reload: after a change to the handler, the new code consumes, and the old consumer and connection are gone
 * (one consumer on the queue, one connection with the application's name on the broker).
 */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class DevModeRestartTest {

    static final String QUEUE = "t.devmode";
    static final String CONNECTION = "devmode-test-" + ProcessHandle.current().pid();
    /**
     * A restart compiles and boots the application again; with the other test JVM busy on the second core that took
     * more than Awaitility's default 10 s in CI (stop 42). The deadline bounds a hang, not the speed.
     */
    static final Duration RESTART = Duration.ofSeconds(60);

    /**
     * Ordered before the application: it deletes what an earlier run left before the application starts, and, since
     * JUnit runs afterAll callbacks in reverse order, deletes the queue once the application has stopped (before, its
     * consumer would see the queue go and declare it again).
     */
    /** One class at a time, whichever JVM runs it: dev mode's HTTP port is 8080 for each. */
    @RegisterExtension
    @Order(0)
    static final ExclusiveResource exclusive = ExclusiveResource.named("devmode");

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE);

    @RegisterExtension
    @Order(2)
    static final QuarkusDevModeTest dev = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClass(DevModeSubscriber.class)
                    .addAsResource(new org.jboss.shrinkwrap.api.asset.StringAsset(
                            "quarkus.rabbitmq-subscriber.url=" + WireBroker.URL + "\n"
                                    + "quarkus.rabbitmq-subscriber.connection-name=" + CONNECTION + "\n"
                                    + "quarkus.devservices.enabled=false\n"),
                            "application.properties"));

    @BeforeAll
    static void cleanQueue() {
        RabbitAdmin.with(admin -> admin.drainIfExists(QUEUE));
    }

    @Test
    void aChangedHandlerTakesOverWithoutLeakingConsumersOrConnections() throws Exception {
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "a"));
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "later"));
        await().atMost(RESTART).until(() -> get("/received").asString().contains("v1:a:1"));
        await().atMost(RESTART).until(() -> get("/received").asString().contains("v1:later:1"));

        dev.modifySourceFile(DevModeSubscriber.class, source -> source.replace("\"v1:\"", "\"v2:\""));
        // The request triggers the restart; the new application starts with an empty list.
        await().atMost(RESTART).until(() -> !get("/received").asString().contains("v1:a"));
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "b"));
        await().atMost(RESTART).until(() -> get("/received").asString().contains("v2:b:1"));
        // The old application published the copy it held for an hour as it stopped; the new one consumed it.
        await().atMost(RESTART).until(() -> get("/received").asString().contains("v2:later:2"));

        RabbitAdmin.with(admin -> assertEquals(1, admin.consumers(QUEUE), "one consumer after the restart"));
        await().atMost(Duration.ofSeconds(30)).until(() -> RabbitAdmin.connectionsNamed(CONNECTION).size() == 1);
    }

}
