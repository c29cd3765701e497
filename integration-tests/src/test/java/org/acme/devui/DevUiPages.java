package org.acme.devui;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.vertx.core.json.JsonObject;

/**
 * The extension's Dev UI pages used as an operator does: the Replay button of the dead-letters page and the Pause and
 * Resume buttons of the subscriptions page, clicked in headless Chromium, with a screenshot of each state in
 * {@code target/devui-screenshots}. Where Chromium is not installed, the JSON-RPC calls those buttons make, made
 * directly; {@code -Dbrowser.test.required=true} (CI) makes its absence a failure instead.
 */
final class DevUiPages {

    static final Duration WAIT = Duration.ofSeconds(60);

    private final DevUiJsonRpc rpc;
    private final String pages;
    private final String shots;

    /** {@code shots}: what the screenshots' names start with, to tell one test's from another's. */
    DevUiPages(DevUiJsonRpc rpc, int port, String shots) {
        this.rpc = rpc;
        this.pages = "http://localhost:" + port + "/q/dev-ui/quarkus-rabbitmq-subscriber/";
        this.shots = shots;
    }

    /**
     * The dead-letters page shows the queue's one message (its text includes {@code shown}); Replay moves it back and
     * the page then shows the queue empty.
     */
    void replayAtAClick(String deadLetterQueue, String shown) throws Exception {
        if (!browserAvailable()) {
            assertEquals(1, ((JsonObject) rpc.call("replay", new JsonObject().put("queue", deadLetterQueue)
                    .put("max", 10))).getInteger("replayed"));
            return;
        }
        try (HeadlessChromium chromium = new HeadlessChromium()) {
            chromium.open(pages + "dead-letters");
            String page = "deep('qwc-rabbitmq-subscriber-dead-letters')?.shadowRoot";
            String queue = page + "?.querySelector(\"[data-queue='" + deadLetterQueue + "']\")";
            chromium.await(queue + "?.querySelector('.depth')?.textContent === '1'", WAIT);
            chromium.await(queue + ".textContent.includes('" + shown + "')", WAIT);
            screenshot(chromium, "dead-letters.png");
            chromium.evaluate(queue + ".querySelector('vaadin-button.replay').click()");
            chromium.await(page + ".getElementById('message').textContent.includes('Replayed 1 from " + deadLetterQueue
                    + "')", WAIT);
            chromium.await(queue + ".querySelector('.depth').textContent === '0'", WAIT);
            screenshot(chromium, "dead-letters-replayed.png");
        }
    }

    /**
     * The subscriptions page pauses the queue's subscriber at a click (its consumer is cancelled), then resumes it
     * (a consumer again). The queue's subscription is the page's first row.
     */
    void pauseAndResumeAtAClick(String queue) throws Exception {
        if (!browserAvailable()) {
            assertEquals("PAUSED", rpc.call("pause", new JsonObject().put("queue", queue)));
            await().atMost(WAIT).until(() -> rpc.queue(queue).getInteger("consumers") == 0);
            assertEquals("CONSUMING", rpc.call("resume", new JsonObject().put("queue", queue)));
            await().atMost(WAIT).until(() -> rpc.queue(queue).getInteger("consumers") == 1);
            return;
        }
        try (HeadlessChromium chromium = new HeadlessChromium()) {
            chromium.open(pages + "subscriptions");
            String element = "deep('qwc-rabbitmq-subscriber-subscriptions')";
            String page = element + "?.shadowRoot";
            chromium.await(page + "?.querySelector('vaadin-button.pause') && " + page
                    + ".querySelector('.state').textContent === 'CONSUMING'", WAIT);
            chromium.evaluate(page + ".querySelector('vaadin-button.pause').click()");
            chromium.await(page + ".querySelector('.state').textContent === 'PAUSED' && " + page
                    + ".querySelector('vaadin-button.resume')", WAIT);
            assertEquals("PAUSED", rpc.subscription(0).getString("state"));
            // Its consumer is cancelled: the queue has none until the resume; the page shows it after a refresh.
            await().atMost(WAIT).until(() -> rpc.queue(queue).getInteger("consumers") == 0);
            chromium.evaluate(page + ".getElementById('refresh-queues').click()");
            chromium.await(element + "._queues.find(view => view.name === '" + queue + "').consumers === 0", WAIT);
            screenshot(chromium, "subscriptions-paused.png");
            chromium.evaluate(page + ".querySelector('vaadin-button.resume').click()");
            chromium.await(page + ".querySelector('.state').textContent === 'CONSUMING'", WAIT);
            assertEquals("CONSUMING", rpc.subscription(0).getString("state"));
            await().atMost(WAIT).until(() -> rpc.queue(queue).getInteger("consumers") == 1);
        }
    }

    private void screenshot(HeadlessChromium chromium, String name) throws Exception {
        System.out.println("Dev UI screenshot: " + chromium.screenshot(Path.of("target", "devui-screenshots",
                shots + name)).toAbsolutePath());
    }

    /** Whether Debian's Chromium is there; its absence fails where {@code -Dbrowser.test.required=true}. */
    static boolean browserAvailable() {
        boolean there = Files.isExecutable(HeadlessChromium.EXECUTABLE);
        if (!there && Boolean.getBoolean("browser.test.required")) {
            throw new AssertionError(HeadlessChromium.EXECUTABLE + " is missing: install Debian's chromium package");
        }
        return there;
    }
}
