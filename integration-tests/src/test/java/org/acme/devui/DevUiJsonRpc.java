package org.acme.devui;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Calls the extension's Dev UI JSON-RPC methods the way its pages do: over the {@code /q/dev-ui/json-rpc-ws} web
 * socket, one {@code {"jsonrpc":"2.0","id":..,"method":"<namespace><method>","params":{..}}} message per call.
 */
final class DevUiJsonRpc implements AutoCloseable {

    /** Dev UI names a method {@code <extension>_<method>}. */
    static final String NAMESPACE = "quarkus-rabbitmq-subscriber_";

    private final Vertx vertx = Vertx.vertx();
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonObject>> answers = new ConcurrentHashMap<>();

    DevUiJsonRpc(int port) throws Exception {
        socket = vertx.createHttpClient().webSocket(new WebSocketConnectOptions().setHost("localhost").setPort(port)
                .setURI("/q/dev-ui/json-rpc-ws")).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        socket.textMessageHandler(text -> {
            JsonObject message = new JsonObject(text);
            CompletableFuture<JsonObject> answer = answers.remove(message.getInteger("id", -1));
            if (answer != null) {
                answer.complete(message);
            }
        });
    }

    /**
     * The result object of one of the extension's methods (the {@code result.object} of the answer); fails with the
     * error it answered.
     */
    Object call(String method, JsonObject params) throws Exception {
        method = NAMESPACE + method;
        int id = ids.incrementAndGet();
        CompletableFuture<JsonObject> answer = new CompletableFuture<>();
        answers.put(id, answer);
        socket.writeTextMessage(new JsonObject().put("jsonrpc", "2.0").put("id", id).put("method", method)
                .put("params", params).encode());
        JsonObject message = answer.get(30, TimeUnit.SECONDS);
        if (message.containsKey("error")) {
            throw new IllegalStateException(method + " answered " + message.encode());
        }
        return message.getJsonObject("result").getValue("object");
    }

    /** A queue of the topology plan as the subscriptions page's queue grid shows it (depth, consumers, ...). */
    JsonObject queue(String name) throws Exception {
        JsonArray queues = (JsonArray) call("queues", new JsonObject());
        return queues.stream().map(JsonObject.class::cast).filter(view -> view.getString("name").equals(name))
                .findFirst().orElseThrow(() -> new AssertionError(name + " not in " + queues.encode()));
    }

    int depth(String queue) throws Exception {
        return queue(queue).getInteger("depth");
    }

    /** A subscription as the subscriptions page lists it, by its place in the list. */
    JsonObject subscription(int index) throws Exception {
        return ((JsonArray) call("subscriptions", new JsonObject())).getJsonObject(index);
    }

    @Override
    public void close() {
        socket.close();
        vertx.close();
    }
}
