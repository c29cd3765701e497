package org.acme.devui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusDevModeTest;
import io.restassured.RestAssured;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The Dev UI's data, read through its JSON-RPC channel as its pages read it, on the in-process broker: the
 * subscription and its topology plan; a message published through it waits in the waiting queue, and advancing the
 * clock through it brings the message back until it lands in the dead-letter queue; the dead letter is peeked, then
 * replayed and the subscriber paused and resumed by clicking the pages' buttons in headless Chromium, with
 * screenshots in {@code target/devui-screenshots}. (Here, not in the deployment
 * module: the Dev UI finds an extension's pages through its installed jars, as in a user's application.)
 */
class DevUiTest {

    @RegisterExtension
    static final QuarkusDevModeTest dev = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClass(DevUiApp.class)
                    .addAsResource(new org.jboss.shrinkwrap.api.asset.StringAsset(
                            "quarkus.rabbitmq-subscriber.broker=in-process\n"
                                    + "quarkus.rabbitmq-subscriber.in-process.clock=paused\n"
                                    + "quarkus.devservices.enabled=false\n"),
                            "application.properties"));

    @Test
    void listsTheSubscriptionsAndTheTopologyAndDrivesTheInProcessClock() throws Exception {
        // Any request starts the application in dev mode. Readiness is there too (the example has smallrye-health).
        RestAssured.get("/q/health/ready").then().statusCode(200).body("status", org.hamcrest.Matchers.is("UP"))
                .body("checks.name", org.hamcrest.Matchers.hasItem("RabbitMQ subscribers"));
        String methods = RestAssured.get("/q/dev-ui/devui-jsonrpc-data.js").asString();
        assertTrue(methods.contains("\"" + DevUiJsonRpc.NAMESPACE + "subscriptions\""), "the page's methods are registered");
        for (String page : new String[] { "qwc-rabbitmq-subscriber-subscriptions.js", "qwc-rabbitmq-subscriber-broker.js" }) {
            String script = RestAssured.get("/q/dev-ui/quarkus-rabbitmq-subscriber/" + page).then().statusCode(200)
                    .extract().asString();
            assertTrue(script.contains("customElements.define("), page + " is served");
        }
        int port = java.net.URI.create(testUri()).getPort();
        try (DevUiJsonRpc rpc = new DevUiJsonRpc(port)) {
            JsonArray subscriptions = (JsonArray) rpc.call("subscriptions", new JsonObject());
            assertEquals(2, subscriptions.size());
            JsonObject refunds = subscriptions.getJsonObject(0);
            JsonObject stock = subscriptions.getJsonObject(1);
            assertEquals("devui.stock", stock.getString("queue"));
            assertEquals(50, stock.getInteger("batchSize"), stock::encode);
            assertEquals("250ms", stock.getString("batchMaxWait"), stock::encode);
            assertEquals(null, refunds.getValue("batchSize"), "a single handler has no batch");
            assertEquals("devui.refunds", refunds.getString("queue"));
            assertEquals("DLX_TTL", refunds.getString("delay"));
            assertEquals(3, refunds.getInteger("maxAttempts"));
            assertEquals("devui.refunds.dead", refunds.getString("deadLetter"));
            assertEquals("WORKER", refunds.getString("executionModel"));
            assertEquals(new JsonArray().add("devui.refunds.retry"), refunds.getJsonArray("waitingQueues"));
            // The subscription sets no prefetch or concurrency: the values in effect are
            // quarkus.rabbitmq-subscriber.prefetch's default of 250, which then bounds the handler's deliveries too.
            assertEquals(250, refunds.getInteger("prefetch"), refunds::encode);
            assertEquals(0, refunds.getInteger("prefetchConfigured"), refunds::encode);
            assertEquals(250, refunds.getInteger("concurrency"), refunds::encode);

            JsonObject topology = (JsonObject) rpc.call("topology", new JsonObject());
            assertEquals(4, topology.getJsonArray("queues").size(), topology::encodePrettily);
            assertTrue(topology.getJsonArray("queues").stream().map(JsonObject.class::cast).anyMatch(
                    queue -> queue.getString("name").equals("devui.refunds.retry")
                            && queue.getString("role").equals("WAITING")
                            && queue.getJsonObject("arguments").getString("x-dead-letter-routing-key")
                                    .equals("devui.refunds")));
            // The exchanges the queue is bound to, RabbitMQ's own marked as only checked, and a binding per key.
            assertEquals(new JsonArray()
                    .add(new JsonObject().put("name", "devui.payments").put("type", "topic").put("builtIn", false)
                            .put("arguments", new JsonObject()))
                    .add(new JsonObject().put("name", "amq.headers").put("type", "headers").put("builtIn", true)
                            .put("arguments", new JsonObject())),
                    topology.getJsonArray("exchanges"), topology::encodePrettily);
            assertEquals(new JsonArray()
                    .add(new JsonObject().put("queue", "devui.refunds").put("exchange", "devui.payments")
                            .put("routingKey", "refund.*").put("arguments", new JsonObject()))
                    .add(new JsonObject().put("queue", "devui.refunds").put("exchange", "amq.headers")
                            .put("routingKey", "").put("arguments",
                                    new JsonObject().put("x-match", "any").put("kind", "refund"))),
                    topology.getJsonArray("bindings"), topology::encodePrettily);

            JsonObject broker = (JsonObject) rpc.call("broker", new JsonObject());
            assertTrue(broker.getBoolean("inProcess"));
            assertTrue(broker.getBoolean("clockPaused"));
            long start = broker.getLong("clockMillis");

            rpc.call("publish", new JsonObject().put("queue", "devui.refunds").put("body", "busy"));
            assertEquals(1, rpc.depth("devui.refunds.retry"), "the first delivery's copy waits 30 s");
            for (int i = 0; i < 2; i++) {
                JsonObject advanced = (JsonObject) rpc.call("advance",
                        new JsonObject().put("millis", 30_000));
                assertEquals(start + 30_000L * (i + 1), advanced.getLong("clockMillis"));
            }
            assertEquals(0, rpc.depth("devui.refunds.retry"));
            assertEquals(1, rpc.depth("devui.refunds.dead"), "the third delivery was the last");

            // The live counters: two delayed retries, then the dead letter at the cap.
            JsonObject outcomes = (JsonObject) rpc.call("outcomes", new JsonObject());
            JsonObject counts = outcomes.getJsonArray("queues").getJsonObject(0);
            assertEquals("devui.refunds", counts.getString("queue"));
            assertEquals(2, counts.getInteger("retry-after"), counts::encode);
            assertEquals(1, counts.getInteger("dead-letter"), counts::encode);
            assertEquals(0, counts.getInteger("ack"), counts::encode);
            assertEquals(0, outcomes.getInteger("inFlight"));
            // The page's columns: every label, in the service's order.
            assertEquals(List.of("ack", "retry", "retry-after", "drop", "dead-letter", "undecodable", "failure", "parked",
                    "duplicate"),
                    outcomes.getJsonArray("labels").getList());

            // The dead-letter queue as its page reads it: its depth, and its message peeked, taking nothing.
            JsonArray deadQueues = (JsonArray) rpc.call("deadLetterQueues", new JsonObject());
            assertEquals(1, deadQueues.size(), deadQueues::encode);
            assertEquals("devui.refunds.dead", deadQueues.getJsonObject(0).getString("name"));
            assertEquals(1, deadQueues.getJsonObject(0).getInteger("depth"));
            JsonArray peeked = (JsonArray) rpc.call("peek",
                    new JsonObject().put("queue", "devui.refunds.dead").put("max", 10));
            assertEquals(1, peeked.size(), peeked::encode);
            JsonObject letter = peeked.getJsonObject(0);
            assertEquals("devui.refunds", letter.getString("sourceQueue"), letter::encode);
            assertEquals("busy", letter.getString("bodyPreview"), letter::encode);
            assertEquals(3, letter.getInteger("attempts"), letter::encode);
            assertEquals(1, rpc.depth("devui.refunds.dead"), "a peek takes nothing");
            assertEquals("CONSUMING", rpc.subscription(0).getString("state"));

            // Through the pages' buttons (in headless Chromium where it is installed).
            DevUiPages pages = new DevUiPages(rpc, port, "");
            pages.replayAtAClick("devui.refunds.dead", "busy");
            pages.pauseAndResumeAtAClick("devui.refunds");
            // The replayed message went back to work: its count reset, it waits its first 30 s again.
            assertEquals(0, rpc.depth("devui.refunds.dead"));
            assertEquals(1, rpc.depth("devui.refunds.retry"));
        }
    }

    /** Where the dev-mode application listens, as QuarkusDevModeTest set it up. */
    @SuppressWarnings("removal")
    static String testUri() {
        return io.quarkus.test.common.http.TestHTTPResourceManager.getUri();
    }
}
