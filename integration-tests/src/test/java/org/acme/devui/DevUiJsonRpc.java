package org.acme.devui;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;

/**
 * Calls the Dev UI's JSON-RPC methods the way its pages do: over the {@code /q/dev-ui/json-rpc-ws} web socket, one
 * {@code {"jsonrpc":"2.0","id":..,"method":"<namespace>.<method>","params":{..}}} message per call.
 */
final class DevUiJsonRpc implements AutoCloseable {

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

    /** The method's result object (the {@code result.object} of the answer); fails with the error it answered. */
    Object call(String method, JsonObject params) throws Exception {
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

    @Override
    public void close() {
        socket.close();
        vertx.close();
    }
}
