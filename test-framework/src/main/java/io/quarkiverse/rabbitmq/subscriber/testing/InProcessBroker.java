package io.quarkiverse.rabbitmq.subscriber.testing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.quarkiverse.rabbitmq.subscriber.MessageProperties;

/**
 * The in-process broker, for tests: inject it where {@code quarkus.rabbitmq-subscriber.broker=in-process}. It lives in
 * a package of its own, apart from the API an application's production code uses. Its clock
 * is paused in tests, so {@link #advance(Duration)} lets any time pass at once: broker TTLs fire and so do the
 * runtime's own timers (a {@code retryAfter} held in the service).
 */
public interface InProcessBroker {

    /**
     * Publishes to a queue through the default exchange, encoded as subscribers decode it: an object as JSON,
     * {@code byte[]} and {@code String} as they are.
     */
    default void publish(String queue, Object payload) {
        publish(queue, payload, Map.of());
    }

    /** Publishes to a queue with headers. */
    default void publish(String queue, Object payload, Map<String, Object> headers) {
        publish("", queue, payload, headers);
    }

    /**
     * Publishes through an exchange, with headers, encoded as {@link #publish(String, Object)} encodes. The exchange
     * routes as on RabbitMQ (by binding key, pattern or headers; {@code ""} is the default exchange, by queue name),
     * and a message it routes to no queue is dropped, as RabbitMQ drops an unroutable message published without
     * {@code mandatory}.
     *
     * @throws IllegalArgumentException when no exchange of that name is declared
     */
    void publish(String exchange, String routingKey, Object payload, Map<String, Object> headers);

    /**
     * Lets {@code duration} pass on the paused clock: every broker TTL and runtime timer due in it fires at its
     * instant, and what each one causes is settled before the next fires.
     */
    void advance(Duration duration);

    /** Returns once every delivery that can happen now has happened and been settled. */
    void awaitIdle();

    /**
     * The in-process broker serving a named broker ({@code quarkus.rabbitmq-subscriber.brokers."<name>"}): each name
     * has one of its own, with its own queues, and all share one clock, so {@link #advance} and {@link #awaitIdle} on
     * any of them act on every one. This one serves the default broker.
     */
    InProcessBroker broker(String name);

    /**
     * Closes every channel as RabbitMQ's forced close does ({@code CONNECTION_FORCED}), for tests of what a cut costs:
     * consumers go and every unacked delivery returns to its queue, to be delivered again (redelivered) once the
     * subscribers have subscribed again, after their back-off on this broker's clock ({@link #advance}).
     */
    void closeChannels();

    /** What waits in a queue, head first, without taking it. */
    List<QueuedMessage> messages(String queue);

    /** A queue's arguments and counts. */
    QueueView queue(String name);

    /**
     * A message waiting in a queue, as it waits there. Header values are plain Java values ({@code String}, not
     * {@code LongString}); the other properties in plain Java types too (on a copy or dead letter the runtime
     * published, its user-id is the runtime's own user).
     */
    record QueuedMessage(byte[] body, Map<String, Object> headers, MessageProperties properties) {

        public String bodyAsString() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public Object header(String name) {
            return headers.get(name);
        }
    }

    /** A queue as declared, and what it holds: ready messages (depth), deliveries not settled, consumers. */
    record QueueView(String name, Map<String, Object> arguments, int depth, int unacked, int consumers) {
    }
}
