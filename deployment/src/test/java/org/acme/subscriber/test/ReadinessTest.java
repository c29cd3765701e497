package org.acme.subscriber.test;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With quarkus-smallrye-health, readiness follows the subscribers: UP while they consume, DOWN (naming the connection
 * and why) once RabbitMQ closes the connection, UP again once they consume again. Liveness stays UP through it.
 */
@Tag("wire")
class ReadinessTest {

    static final String QUEUE = "t.readiness";
    static final String CONNECTION = "readiness-test-" + ProcessHandle.current().pid();

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            // Reconnect after about 3 s, so the DOWN state is there to be seen.
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "3s")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.jitter", "0");

    @Test
    void readinessFollowsTheConnection() throws Exception {
        given().get("/q/health/ready").then().statusCode(200).body("checks.find { it.name == 'RabbitMQ subscribers' }"
                + ".status", is("UP"));

        List<String> connections = RabbitAdmin.connectionsNamed(CONNECTION);
        RabbitAdmin.rabbitmqctl("close_connection", connections.get(0).substring(0, connections.get(0).indexOf('\t')),
                "closed by test");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/q/health/ready").then()
                .statusCode(503).body(containsString("lost the connection")));
        given().get("/q/health/live").then().statusCode(200);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().get("/q/health/ready").then()
                .statusCode(200));
        RabbitAdmin.with(admin -> await().until(() -> admin.consumers(QUEUE) == 1));
    }

    public static class Handler {
        @Subscriber(QUEUE)
        void handle(String body) {
        }
    }
}
