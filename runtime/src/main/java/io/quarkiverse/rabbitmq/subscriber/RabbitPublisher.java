package io.quarkiverse.rabbitmq.subscriber;

import java.time.Duration;
import java.util.Map;

import io.smallrye.mutiny.Uni;

/**
 * Publishes payloads to RabbitMQ, encoded the way subscribers decode them: {@code byte[]}, {@code String},
 * {@code Buffer}, {@code JsonObject} and {@code JsonArray} go as they are, any other object as JSON through Quarkus's
 * {@code ObjectMapper}.
 * <p>
 * One vocabulary, as {@link Outputs} has it: {@code send} goes to a queue (through the default exchange),
 * {@code publish} to an exchange with a routing key. The plain forms complete once the message is handed to the
 * connection (fire and forget). The {@code Confirmed} forms publish {@code mandatory} on a channel in confirm mode and
 * complete once the broker confirmed the message; they fail when the broker nacks it or cannot route it; their
 * {@code ...AndAwait} forms block the calling thread until then (never call them on an event loop). A whole message,
 * with its properties (a message id, say), is an {@link OutgoingMessage}; the forms that take a payload and headers
 * send one with the defaults it describes, the headers as given. {@link #request(String, Object, Class, Duration)}
 * sends a request and waits for its reply.
 */
public interface RabbitPublisher {

    /** Sends to a queue through the default exchange. */
    default Uni<Void> send(String queue, Object payload) {
        return send(queue, payload, Map.of());
    }

    /**
     * Sends to a queue through the default exchange, with application headers: they go in the message's header table
     * as given (a {@code message-id} entry is the message id property instead, with a WARN: say so with
     * {@link OutgoingMessage#messageId(String)}).
     */
    default Uni<Void> send(String queue, Object payload, Map<String, Object> headers) {
        return publish("", queue, payload, headers);
    }

    /** Publishes to an exchange with a routing key. */
    default Uni<Void> publish(String exchange, String routingKey, Object payload) {
        return publish(exchange, routingKey, payload, Map.of());
    }

    /** Publishes to an exchange with a routing key and application headers (as {@link #send(String, Object, Map)}). */
    default Uni<Void> publish(String exchange, String routingKey, Object payload, Map<String, Object> headers) {
        return Uni.createFrom().deferred(() -> send(HeaderMessages.of(exchange, routingKey, payload, headers)));
    }

    /** Sends a whole message, fire and forget: complete once it is handed to the connection. */
    Uni<Void> send(OutgoingMessage message);

    /**
     * A message for a partitioned subscription of this application ({@code @Subscriber(partitions)}), addressed to its
     * consistent-hash exchange with {@code key} where its {@code partitionKey} says (the routing key, a header or the
     * message-id): every message of one key reaches the same partition, in the order sent. Add the payload and send
     * it. Fails naming this application's partitioned subscriptions when {@code subscription} is none of them.
     */
    OutgoingMessage toPartition(String subscription, String key);

    /** Sends to a partitioned subscription of this application by its name and a key: {@link #toPartition}. */
    default Uni<Void> sendToPartition(String subscription, String key, Object payload) {
        return Uni.createFrom().deferred(() -> send(toPartition(subscription, key).payload(payload)));
    }

    /** {@link #sendToPartition}, and waits for the broker's confirm. */
    default Uni<Void> sendToPartitionConfirmed(String subscription, String key, Object payload) {
        return Uni.createFrom().deferred(() -> sendConfirmed(toPartition(subscription, key).payload(payload)));
    }

    /** Sends to a queue through the default exchange and waits for the broker's confirm. */
    default Uni<Void> sendConfirmed(String queue, Object payload) {
        return sendConfirmed(queue, payload, Map.of());
    }

    /**
     * Sends to a queue through the default exchange with application headers (as {@link #send(String, Object, Map)}),
     * and waits for the broker's confirm.
     */
    default Uni<Void> sendConfirmed(String queue, Object payload, Map<String, Object> headers) {
        return publishConfirmed("", queue, payload, headers);
    }

    /** Publishes to an exchange with a routing key, and waits for the broker's confirm. */
    default Uni<Void> publishConfirmed(String exchange, String routingKey, Object payload) {
        return publishConfirmed(exchange, routingKey, payload, Map.of());
    }

    /** Publishes to an exchange with a routing key and headers, and waits for the broker's confirm. */
    default Uni<Void> publishConfirmed(String exchange, String routingKey, Object payload, Map<String, Object> headers) {
        return Uni.createFrom().deferred(() -> sendConfirmed(HeaderMessages.of(exchange, routingKey, payload, headers)));
    }

    /**
     * Sends a whole message {@code mandatory} and waits for the broker's confirm; fails when the broker nacks it, no
     * queue takes it, or no confirm comes within {@code quarkus.rabbitmq-subscriber.publisher.confirm-timeout}. A reply
     * to a direct reply-to address ({@code amq.rabbitmq.reply-to.*}, from {@link Delivery#replyTo()}) goes without
     * {@code mandatory}: RabbitMQ delivers such a reply straight to its requester, yet counts it unroutable, and would
     * return every one.
     */
    Uni<Void> sendConfirmed(OutgoingMessage message);

    /** {@link #sendConfirmed(String, Object)}, blocking the calling thread until the broker confirmed. */
    default void sendConfirmedAndAwait(String queue, Object payload) {
        sendConfirmedAndAwait(queue, payload, Map.of());
    }

    /** {@link #sendConfirmed(String, Object, Map)}, blocking the calling thread until the broker confirmed. */
    default void sendConfirmedAndAwait(String queue, Object payload, Map<String, Object> headers) {
        sendConfirmed(queue, payload, headers).await().indefinitely();
    }

    /** {@link #publishConfirmed(String, String, Object)}, blocking the calling thread until the broker confirmed. */
    default void publishConfirmedAndAwait(String exchange, String routingKey, Object payload) {
        publishConfirmedAndAwait(exchange, routingKey, payload, Map.of());
    }

    /** {@link #publishConfirmed(String, String, Object, Map)}, blocking the calling thread until the broker confirmed. */
    default void publishConfirmedAndAwait(String exchange, String routingKey, Object payload,
            Map<String, Object> headers) {
        publishConfirmed(exchange, routingKey, payload, headers).await().indefinitely();
    }

    /** {@link #sendConfirmed(OutgoingMessage)}, blocking the calling thread until the broker confirmed. */
    default void sendConfirmedAndAwait(OutgoingMessage message) {
        sendConfirmed(message).await().indefinitely();
    }

    /**
     * Sends a request to a queue and completes with its reply, through RabbitMQ's direct reply-to
     * ({@code amq.rabbitmq.reply-to}): no reply queue is declared. The request carries a reply-to address the server
     * generates and a correlation id of its own; whoever handles it answers by publishing to the address with that
     * correlation id through the default exchange, from any connection:
     *
     * <pre>
     * &#64;Subscriber("quotes")
     * void quote(QuoteRequest request, Delivery delivery) {
     *     publisher.send(OutgoingMessage.toQueue(delivery.replyTo()).correlationId(delivery.correlationId())
     *             .payload(new Quote(request.id(), 42))).await().indefinitely();
     * }
     * </pre>
     *
     * The reply is decoded into {@code replyType} as a handler's payload parameter of that type would be
     * ({@code byte[]}, {@code String}, {@code Buffer}, {@code JsonObject}, {@code JsonArray}, or from JSON), and the
     * {@code Uni} completes
     * on the caller's Vert.x context (a worker when there is none). It fails with a
     * {@link java.util.concurrent.TimeoutException} naming the queue, the timeout and the correlation id when no reply
     * came within {@code timeout}; at once when no queue takes the request (it is published {@code mandatory}); and
     * when the publisher's connection is lost before the reply came (the address is the lost channel's, and a reply
     * can no longer reach it). A reply that comes too late is dropped (logged at DEBUG). The request expires from the
     * queue after {@code timeout}: no one handles it for nobody.
     *
     * @throws IllegalArgumentException when the timeout is not positive
     */
    default <R> Uni<R> request(String queue, Object payload, Class<R> replyType, Duration timeout) {
        return request(OutgoingMessage.toQueue(queue).payload(payload), replyType, timeout);
    }

    /**
     * Sends a whole message as a request, as {@link #request(String, Object, Class, Duration)} sends a payload: to a
     * queue or through an exchange, with its headers and properties. Its reply-to and correlation id are the
     * publisher's own; it expires after {@code timeout} unless it has an expiration of its own.
     *
     * @throws IllegalArgumentException when the message has a reply-to or a correlation id, or the timeout is not
     *         positive
     */
    <R> Uni<R> request(OutgoingMessage request, Class<R> replyType, Duration timeout);
}
