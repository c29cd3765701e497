package org.acme.devui;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import io.quarkiverse.rabbitmq.subscriber.testsupport.BrokerAnswers;
import io.quarkus.test.QuarkusDevModeTest;
import io.restassured.RestAssured;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The Dev UI's operations on RabbitMQ ({@code -Drabbitmq.test.port}, 5672 by default): a message the handler
 * dead-letters at once is peeked with its reason and source queue, replayed at the dead-letters page's button and
 * then taken; the subscriber is paused and resumed at the subscriptions page's buttons, its consumer cancelled and
 * back. Skipped without a broker ({@link BrokerAnswers}), unless {@code -Drabbitmq.test.required=true}.
 */
@ExtendWith(BrokerAnswers.class)
class DevUiOnRabbitMqTest {

    static final int PORT = Integer.getInteger("rabbitmq.test.port", 5672);

    /** Before the application starts: deletes what an earlier run left. */
    @RegisterExtension
    @Order(1)
    static final BeforeAllCallback broker = context -> deleteQueues();

    @RegisterExtension
    @Order(2)
    static final QuarkusDevModeTest dev = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClass(DevUiRabbitMqApp.class)
                    .addAsResource(new org.jboss.shrinkwrap.api.asset.StringAsset(
                            "quarkus.rabbitmq-subscriber.url=amqp://guest:guest@127.0.0.1:" + PORT + "\n"
                                    + "quarkus.devservices.enabled=false\n"),
                            "application.properties"));

    @AfterAll
    static void cleanUp() {
        deleteQueues();
    }

    @Test
    void peeksReplaysPausesAndResumesOnRabbitMq() throws Exception {
        RestAssured.get("/q/health/ready").then().statusCode(200);
        int port = java.net.URI.create(DevUiTest.testUri()).getPort();
        try (DevUiJsonRpc rpc = new DevUiJsonRpc(port)) {
            rpc.call("publish", new JsonObject().put("queue", DevUiRabbitMqApp.ORDERS).put("body", "order-17"));
            await().atMost(DevUiPages.WAIT).until(() -> rpc.depth(DevUiRabbitMqApp.DEAD) == 1);

            JsonArray peeked = (JsonArray) rpc.call("peek", new JsonObject().put("queue", DevUiRabbitMqApp.DEAD)
                    .put("max", 10));
            assertEquals(1, peeked.size(), peeked::encode);
            JsonObject letter = peeked.getJsonObject(0);
            assertEquals(DevUiRabbitMqApp.ORDERS, letter.getString("sourceQueue"), letter::encode);
            assertEquals("the stock service says no", letter.getString("reason"), letter::encode);
            assertEquals("order-17", letter.getString("bodyPreview"), letter::encode);
            // The headers as JSON values: RabbitMQ's strings (LongString on the wire) as text.
            assertEquals(DevUiRabbitMqApp.ORDERS, letter.getJsonObject("headers").getString("x-original-queue"),
                    letter::encode);

            DevUiPages pages = new DevUiPages(rpc, port, "rabbitmq-" + PORT + "-");
            pages.replayAtAClick(DevUiRabbitMqApp.DEAD, "the stock service says no");
            // Replayed, the order is taken this time.
            await().atMost(DevUiPages.WAIT).until(() -> ((JsonObject) rpc.call("outcomes", new JsonObject()))
                    .getJsonArray("queues").getJsonObject(0).getInteger("ack") == 1);
            assertEquals(0, rpc.depth(DevUiRabbitMqApp.DEAD));
            assertEquals(0, rpc.depth(DevUiRabbitMqApp.ORDERS));

            pages.pauseAndResumeAtAClick(DevUiRabbitMqApp.ORDERS);
        }
    }

    /** Deletes the test's queues. */
    static void deleteQueues() {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setPort(PORT);
        try (Connection connection = factory.newConnection(); Channel channel = connection.createChannel()) {
            channel.queueDelete(DevUiRabbitMqApp.ORDERS);
            channel.queueDelete(DevUiRabbitMqApp.DEAD);
        } catch (Exception e) {
            throw new IllegalStateException("Could not delete the Dev UI test's queues on 127.0.0.1:" + PORT, e);
        }
    }
}
