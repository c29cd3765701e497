package org.acme.devui;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.vertx.core.json.JsonObject;

/**
 * Debian's Chromium, headless, driven over the DevTools protocol (a web socket to its page; no driver, no download):
 * open a page, evaluate JavaScript in it, wait for a condition, take a screenshot. Dev UI pages live in shadow roots,
 * so the scripts find elements with {@link #DEEP}.
 */
final class HeadlessChromium implements AutoCloseable {

    static final Path EXECUTABLE = Path.of("/usr/bin/chromium");

    /**
     * A function {@code deep(selector)} defined before each script: the first element matching the selector in the
     * document or any shadow root beneath it.
     */
    static final String DEEP = "const deep = (selector, root = document) => { const found = root.querySelector(selector);"
            + " if (found) return found; for (const element of root.querySelectorAll('*')) { if (element.shadowRoot) {"
            + " const inside = deep(selector, element.shadowRoot); if (inside) return inside; } } return null; };";

    private static final Pattern LISTENING = Pattern.compile("DevTools listening on ws://127\\.0\\.0\\.1:(\\d+)/");

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonObject>> answers = new ConcurrentHashMap<>();
    private final List<String> output = new ArrayList<>();

    HeadlessChromium() throws Exception {
        profile = Files.createTempDirectory("devui-chromium");
        // The flags a closed network needs: no background connections, no component updates, no sync.
        process = new ProcessBuilder(EXECUTABLE.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-dev-shm-usage", "--remote-allow-origins=*", "--window-size=1600,1000",
                "--user-data-dir=" + profile, "--remote-debugging-port=0", "about:blank").redirectErrorStream(true)
                .start();
        int port = debuggingPort();
        socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create(pageSocket(port)), new Answers()).get(30, TimeUnit.SECONDS);
        call("Page.enable", new JsonObject());
        call("Runtime.enable", new JsonObject());
    }

    /** Opens a page and waits until it loaded. */
    void open(String url) throws Exception {
        call("Page.navigate", new JsonObject().put("url", url));
        await("document.readyState === 'complete'", Duration.ofSeconds(30));
    }

    /** Evaluates a script (with {@link #DEEP} defined), awaiting a promise it returns; answers its value. */
    Object evaluate(String script) throws Exception {
        JsonObject result = call("Runtime.evaluate", new JsonObject()
                .put("expression", "(() => { " + DEEP + " return (" + script + "); })()")
                .put("awaitPromise", true).put("returnByValue", true));
        if (result.containsKey("exceptionDetails")) {
            throw new IllegalStateException("The page failed on " + script + ": " + result.getJsonObject(
                    "exceptionDetails").encode());
        }
        return result.getJsonObject("result").getValue("value");
    }

    /** Waits until a script is true, else fails with the last text of the page. */
    void await(String condition, Duration timeout) throws Exception {
        Instant deadline = Instant.now().plus(timeout);
        while (!Boolean.TRUE.equals(evaluate("!!(" + condition + ")"))) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("Not true after " + timeout + ": " + condition);
            }
            // Polling the page, not waiting on the test: the page changes on its own (JSON-RPC answers, renders).
            evaluate("new Promise(resolve => setTimeout(() => resolve(true), 100))");
        }
    }

    /** The page as it looks now, as a PNG file; answers the file. */
    Path screenshot(Path file) throws Exception {
        JsonObject shot = call("Page.captureScreenshot", new JsonObject().put("format", "png"));
        Files.createDirectories(file.getParent());
        Files.write(file, Base64.getDecoder().decode(shot.getString("data")));
        return file;
    }

    private JsonObject call(String method, JsonObject params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonObject> answer = new CompletableFuture<>();
        answers.put(id, answer);
        socket.sendText(new JsonObject().put("id", id).put("method", method).put("params", params).encode(), true)
                .get(30, TimeUnit.SECONDS);
        JsonObject message = answer.get(60, TimeUnit.SECONDS);
        if (message.containsKey("error")) {
            throw new IllegalStateException(method + " answered " + message.encode());
        }
        return message.getJsonObject("result");
    }

    /** The port Chromium chose, from the line it prints; its other output is kept for a failure's message. */
    private int debuggingPort() throws IOException {
        BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = lines.readLine()) != null;) {
            Matcher listening = LISTENING.matcher(line);
            if (listening.find()) {
                // Keep reading, so that Chromium never blocks on a full pipe.
                Thread drain = new Thread(() -> lines.lines().forEach(ignored -> {
                }), "chromium-output");
                drain.setDaemon(true);
                drain.start();
                return Integer.parseInt(listening.group(1));
            }
            output.add(line);
        }
        throw new IllegalStateException("Chromium exited before it listened: " + String.join("\n", output));
    }

    /** The web socket of the page Chromium opened (about:blank). */
    private static String pageSocket(int port) throws Exception {
        HttpResponse<String> list = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/json/list")).build(), HttpResponse.BodyHandlers.ofString());
        return new io.vertx.core.json.JsonArray(list.body()).stream().map(JsonObject.class::cast)
                .filter(target -> target.getString("type").equals("page")).findFirst()
                .orElseThrow(() -> new IllegalStateException("Chromium has no page: " + list.body()))
                .getString("webSocketDebuggerUrl");
    }

    @Override
    public void close() throws Exception {
        socket.abort();
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        // Chromium's helper processes may still write into the profile while the main one exits: a file that goes
        // while the walk reads its folder is no failure of the test (it failed CI once so), and a walk again takes
        // what came after. What is left in the temporary folder then is left.
        for (int attempt = 0; attempt < 3 && Files.exists(profile); attempt++) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (java.io.IOException | java.io.UncheckedIOException e) {
                // walked into a file that went: walk again
            }
        }
    }

    /** Answers by id; events (no id) are not needed. A message may come in parts (a screenshot does). */
    private final class Answers implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                JsonObject message = new JsonObject(text.toString());
                text.setLength(0);
                CompletableFuture<JsonObject> answer = answers.remove(message.getInteger("id", -1));
                if (answer != null) {
                    answer.complete(message);
                }
            }
            webSocket.request(1);
            return null;
        }
    }
}
