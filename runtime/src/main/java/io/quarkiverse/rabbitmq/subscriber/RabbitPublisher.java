package io.quarkiverse.rabbitmq.subscriber;

import java.util.Map;

import io.smallrye.mutiny.Uni;

/**
 * Publishes payloads to RabbitMQ, encoded the way subscribers decode them: {@code byte[]}, {@code String},
 * {@code Buffer} and {@code JsonObject} go as they are, any other object as JSON through Quarkus's
 * {@code ObjectMapper}.
 * <p>
 * The plain variants complete once the message is handed to the connection (fire and forget). The
 * {@code confirmed} variants publish {@code mandatory} on a channel in confirm mode and complete once the broker
 * confirmed the message; they fail when the broker nacks it or cannot route it.
 */
public interface RabbitPublisher {

    /** Sends to a queue through the default exchange. */
    default Uni<Void> send(String queue, Object payload) {
        return send(queue, payload, Map.of());
    }

    /**
     * Sends to a queue through the default exchange, with application headers: they go in the message's header table
     * as given (a {@code message-id} entry becomes the message id property instead).
     */
    default Uni<Void> send(String queue, Object payload, Map<String, Object> headers) {
        return send("", queue, payload, headers);
    }

    /** Sends to an exchange with a routing key and headers. */
    Uni<Void> send(String exchange, String routingKey, Object payload, Map<String, Object> headers);

    /** Sends to a queue through the default exchange and waits for the broker's confirm. */
    default Uni<Void> sendConfirmed(String queue, Object payload) {
        return sendConfirmed(queue, payload, Map.of());
    }

    /**
     * Sends to a queue through the default exchange with application headers (as {@link #send(String, Object, Map)}),
     * and waits for the broker's confirm.
     */
    default Uni<Void> sendConfirmed(String queue, Object payload, Map<String, Object> headers) {
        return sendConfirmed("", queue, payload, headers);
    }

    /** Sends to an exchange with a routing key and headers, and waits for the broker's confirm. */
    Uni<Void> sendConfirmed(String exchange, String routingKey, Object payload, Map<String, Object> headers);

    /** Blocking variant of {@link #sendConfirmed(String, Object)}: returns once the broker confirmed. */
    default void sendAndAwait(String queue, Object payload) {
        sendAndAwait(queue, payload, Map.of());
    }

    /** Blocking variant of {@link #sendConfirmed(String, Object, Map)}: returns once the broker confirmed. */
    default void sendAndAwait(String queue, Object payload, Map<String, Object> headers) {
        sendConfirmed(queue, payload, headers).await().indefinitely();
    }

    /** Blocking variant of {@link #sendConfirmed(String, String, Object, Map)}. */
    default void sendAndAwait(String exchange, String routingKey, Object payload, Map<String, Object> headers) {
        sendConfirmed(exchange, routingKey, payload, headers).await().indefinitely();
    }
}
