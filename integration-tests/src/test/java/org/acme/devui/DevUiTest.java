package org.acme.devui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

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

    /** Dev UI names a method {@code <extension>_<method>}. */
    static final String NAMESPACE = "quarkus-rabbitmq-subscriber_";

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
        assertTrue(methods.contains("\"" + NAMESPACE + "subscriptions\""), "the page's methods are registered");
        for (String page : new String[] { "qwc-rabbitmq-subscriber-subscriptions.js", "qwc-rabbitmq-subscriber-broker.js" }) {
            String script = RestAssured.get("/q/dev-ui/quarkus-rabbitmq-subscriber/" + page).then().statusCode(200)
                    .extract().asString();
            assertTrue(script.contains("customElements.define("), page + " is served");
        }
        int port = java.net.URI.create(testUri()).getPort();
        try (DevUiJsonRpc rpc = new DevUiJsonRpc(port)) {
            JsonArray subscriptions = (JsonArray) rpc.call(NAMESPACE + "subscriptions", new JsonObject());
            assertEquals(1, subscriptions.size());
            JsonObject refunds = subscriptions.getJsonObject(0);
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

            JsonObject topology = (JsonObject) rpc.call(NAMESPACE + "topology", new JsonObject());
            assertEquals(3, topology.getJsonArray("queues").size(), topology::encodePrettily);
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

            JsonObject broker = (JsonObject) rpc.call(NAMESPACE + "broker", new JsonObject());
            assertTrue(broker.getBoolean("inProcess"));
            assertTrue(broker.getBoolean("clockPaused"));
            long start = broker.getLong("clockMillis");

            rpc.call(NAMESPACE + "publish", new JsonObject().put("queue", "devui.refunds").put("body", "busy"));
            assertEquals(1, depth(rpc, "devui.refunds.retry"), "the first delivery's copy waits 30 s");
            for (int i = 0; i < 2; i++) {
                JsonObject advanced = (JsonObject) rpc.call(NAMESPACE + "advance",
                        new JsonObject().put("millis", 30_000));
                assertEquals(start + 30_000L * (i + 1), advanced.getLong("clockMillis"));
            }
            assertEquals(0, depth(rpc, "devui.refunds.retry"));
            assertEquals(1, depth(rpc, "devui.refunds.dead"), "the third delivery was the last");

            // The live counters: two delayed retries, then the dead letter at the cap.
            JsonObject outcomes = (JsonObject) rpc.call(NAMESPACE + "outcomes", new JsonObject());
            JsonObject counts = outcomes.getJsonArray("queues").getJsonObject(0);
            assertEquals("devui.refunds", counts.getString("queue"));
            assertEquals(2, counts.getInteger("retry-after"), counts::encode);
            assertEquals(1, counts.getInteger("dead-letter"), counts::encode);
            assertEquals(0, counts.getInteger("ack"), counts::encode);
            assertEquals(0, outcomes.getInteger("inFlight"));
            // The page's columns: every label, in the service's order.
            assertEquals(List.of("ack", "retry", "retry-after", "drop", "dead-letter", "undecodable", "failure"),
                    outcomes.getJsonArray("labels").getList());

            // The dead-letter queue as its page reads it: its depth, and its message peeked, taking nothing.
            JsonArray deadQueues = (JsonArray) rpc.call(NAMESPACE + "deadLetterQueues", new JsonObject());
            assertEquals(1, deadQueues.size(), deadQueues::encode);
            assertEquals("devui.refunds.dead", deadQueues.getJsonObject(0).getString("name"));
            assertEquals(1, deadQueues.getJsonObject(0).getInteger("depth"));
            JsonArray peeked = (JsonArray) rpc.call(NAMESPACE + "peek",
                    new JsonObject().put("queue", "devui.refunds.dead").put("max", 10));
            assertEquals(1, peeked.size(), peeked::encode);
            JsonObject letter = peeked.getJsonObject(0);
            assertEquals("devui.refunds", letter.getString("sourceQueue"), letter::encode);
            assertEquals("busy", letter.getString("bodyPreview"), letter::encode);
            assertEquals(3, letter.getInteger("retryCount"), letter::encode);
            assertEquals(1, depth(rpc, "devui.refunds.dead"), "a peek takes nothing");
            assertEquals("CONSUMING", subscriptions(rpc).getString("state"));

            if (browserAvailable()) {
                throughThePagesInChromium(rpc, port);
            } else {
                // Without a browser the JSON-RPC calls the buttons make, as the pages make them.
                assertEquals(1, ((JsonObject) rpc.call(NAMESPACE + "replay",
                        new JsonObject().put("queue", "devui.refunds.dead").put("max", 10))).getInteger("replayed"));
                assertEquals("PAUSED", rpc.call(NAMESPACE + "pause", new JsonObject().put("queue", "devui.refunds")));
                assertEquals("CONSUMING",
                        rpc.call(NAMESPACE + "resume", new JsonObject().put("queue", "devui.refunds")));
            }
            // The replayed message went back to work: its count reset, it waits its first 30 s again.
            assertEquals(0, depth(rpc, "devui.refunds.dead"));
            assertEquals(1, depth(rpc, "devui.refunds.retry"));
        }
    }

    /**
     * The dead-letter page shows the message and replays it at a click; the subscriptions page pauses and resumes the
     * subscriber at a click. A screenshot of each state lands in {@code target/devui-screenshots}.
     */
    static void throughThePagesInChromium(DevUiJsonRpc rpc, int port) throws Exception {
        String pages = "http://localhost:" + port + "/q/dev-ui/quarkus-rabbitmq-subscriber/";
        Duration wait = Duration.ofSeconds(60);
        try (HeadlessChromium chromium = new HeadlessChromium()) {
            chromium.open(pages + "dead-letters");
            String page = "deep('qwc-rabbitmq-subscriber-dead-letters')?.shadowRoot";
            chromium.await(page + "?.querySelector('.depth')?.textContent === '1'", wait);
            chromium.await(page + ".textContent.includes('busy') && " + page + ".textContent.includes('devui.refunds')",
                    wait);
            screenshot(chromium, "dead-letters.png");
            chromium.evaluate(page + ".querySelector('vaadin-button.replay').click()");
            chromium.await(page + ".getElementById('message').textContent.includes('Replayed 1 from devui.refunds.dead')",
                    wait);
            chromium.await(page + ".querySelector('.depth').textContent === '0'", wait);
            screenshot(chromium, "dead-letters-replayed.png");

            chromium.open(pages + "subscriptions");
            page = "deep('qwc-rabbitmq-subscriber-subscriptions')?.shadowRoot";
            chromium.await(page + "?.querySelector('vaadin-button.pause') && " + page
                    + ".querySelector('.state').textContent === 'CONSUMING'", wait);
            chromium.evaluate(page + ".querySelector('vaadin-button.pause').click()");
            chromium.await(page + ".querySelector('.state').textContent === 'PAUSED' && " + page
                    + ".querySelector('vaadin-button.resume')", wait);
            assertEquals("PAUSED", subscriptions(rpc).getString("state"));
            // Its consumer is cancelled: the queue has none until the resume.
            org.awaitility.Awaitility.await().atMost(wait).until(() -> queue(rpc, "devui.refunds")
                    .getInteger("consumers") == 0);
            chromium.evaluate(page + ".getElementById('refresh-queues').click()");
            chromium.await("deep('qwc-rabbitmq-subscriber-subscriptions')._queues.find(queue => queue.name === "
                    + "'devui.refunds').consumers === 0", wait);
            screenshot(chromium, "subscriptions-paused.png");
            chromium.evaluate(page + ".querySelector('vaadin-button.resume').click()");
            chromium.await(page + ".querySelector('.state').textContent === 'CONSUMING'", wait);
            assertEquals("CONSUMING", subscriptions(rpc).getString("state"));
            org.awaitility.Awaitility.await().atMost(wait).until(() -> queue(rpc, "devui.refunds")
                    .getInteger("consumers") == 1);
        }
    }

    static void screenshot(HeadlessChromium chromium, String name) throws Exception {
        System.out.println("Dev UI screenshot: " + chromium.screenshot(Path.of("target", "devui-screenshots", name))
                .toAbsolutePath());
    }

    /**
     * Whether Debian's Chromium is there; with {@code -Dbrowser.test.required=true} (CI) its absence fails the test
     * instead of leaving the pages unchecked.
     */
    static boolean browserAvailable() {
        boolean there = Files.isExecutable(HeadlessChromium.EXECUTABLE);
        if (!there && Boolean.getBoolean("browser.test.required")) {
            throw new AssertionError(HeadlessChromium.EXECUTABLE + " is missing: install Debian's chromium package");
        }
        return there;
    }

    static JsonObject subscriptions(DevUiJsonRpc rpc) throws Exception {
        return ((JsonArray) rpc.call(NAMESPACE + "subscriptions", new JsonObject())).getJsonObject(0);
    }

    /** Where the dev-mode application listens, as QuarkusDevModeTest set it up. */
    @SuppressWarnings("removal")
    static String testUri() {
        return io.quarkus.test.common.http.TestHTTPResourceManager.getUri();
    }

    static int depth(DevUiJsonRpc rpc, String queue) throws Exception {
        return queue(rpc, queue).getInteger("depth");
    }

    /** The queue as the subscriptions page's queue grid shows it. */
    static JsonObject queue(DevUiJsonRpc rpc, String queue) throws Exception {
        JsonArray queues = (JsonArray) rpc.call(NAMESPACE + "queues", new JsonObject());
        Predicate<JsonObject> named = view -> view.getString("name").equals(queue);
        return queues.stream().map(JsonObject.class::cast).filter(named).findFirst()
                .orElseThrow(() -> new AssertionError(queue + " not in " + queues.encode()));
    }
}
