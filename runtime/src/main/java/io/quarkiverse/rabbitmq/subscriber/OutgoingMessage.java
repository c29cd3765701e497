package io.quarkiverse.rabbitmq.subscriber;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A whole message for {@link RabbitPublisher}: where it goes, its payload, its headers and its AMQP properties.
 *
 * <pre>
 * publisher.sendConfirmed(OutgoingMessage.to("payments", "refund.eu")
 *         .payload(refund)
 *         .header("tenant", "acme")
 *         .correlationId(request.id())
 *         .expiration(Duration.ofMinutes(5)));
 *
 * // answering a request, in a handler that declared a Delivery parameter
 * publisher.send(OutgoingMessage.toQueue(delivery.replyTo()).correlationId(delivery.correlationId()).payload(quote));
 * </pre>
 *
 * Immutable: each method returns a new message and leaves this one as it was, so one message can be the template of
 * many ({@code base.payload(a)}, {@code base.payload(b)}) and can be shared between threads. Each method checks its
 * argument at once and throws {@link IllegalArgumentException} naming what is wrong, rather than letting the broker
 * close the channel later.
 * <p>
 * What is not set goes as {@link RabbitPublisher} always sends: a random UUID message id, a content type chosen from
 * the payload ({@code application/json} for an object encoded as JSON, {@code text/plain} for a {@code String},
 * {@code application/octet-stream} for {@code byte[]} and {@code Buffer}), persistent (delivery mode 2), no expiration,
 * no priority, an empty body.
 */
public final class OutgoingMessage {

    /** AMQP carries names and most properties as short strings: at most 255 bytes of UTF-8. */
    private static final int SHORT_STRING_BYTES = 255;
    /** The largest per-message expiration RabbitMQ accepts (its timers' limit, 2^32 - 1 ms: about 49.7 days). */
    private static final Duration MAX_EXPIRATION = Duration.ofMillis(4_294_967_295L);
    private static final byte[] EMPTY = new byte[0];
    /** The header RabbitMQ reads a message's stream filter value from (AMQP 0.9.1 publishers, 3.13 and later). */
    static final String FILTER_VALUE_HEADER = "x-stream-filter-value";

    private final String exchange;
    private final String routingKey;
    private final Object payload;
    private final Map<String, Object> headers;
    private final String messageId;
    private final String correlationId;
    private final String replyTo;
    private final String contentType;
    private final String contentEncoding;
    /** In milliseconds, or -1 for none. */
    private final long expirationMillis;
    /** 0..255, or -1 for none. */
    private final int priority;
    private final boolean persistent;
    /** Whether no queue taking it is a failure (a return): true unless the sender said nobody taking it is fine. */
    private final boolean mandatory;
    /** The named broker it is sent to, or null: the publisher's own (an output: its subscription's). */
    private final String broker;

    private OutgoingMessage(String exchange, String routingKey, Object payload, Map<String, Object> headers,
            String messageId, String correlationId, String replyTo, String contentType, String contentEncoding,
            long expirationMillis, int priority, boolean persistent, boolean mandatory, String broker) {
        this.broker = broker;
        this.exchange = exchange;
        this.routingKey = routingKey;
        this.payload = payload;
        this.headers = headers;
        this.messageId = messageId;
        this.correlationId = correlationId;
        this.replyTo = replyTo;
        this.contentType = contentType;
        this.contentEncoding = contentEncoding;
        this.expirationMillis = expirationMillis;
        this.priority = priority;
        this.persistent = persistent;
        this.mandatory = mandatory;
    }

    /**
     * A message to an exchange with a routing key; {@code ""} is the default exchange, which routes to the queue named
     * by the routing key (as {@link #toQueue(String)}).
     */
    public static OutgoingMessage to(String exchange, String routingKey) {
        return new OutgoingMessage(shortString("exchange", required("exchange", exchange)),
                shortString("routing key", required("routing key", routingKey)), EMPTY, Map.of(), null, null, null,
                null, null, -1, -1, true, true, null);
    }

    /**
     * A message to a queue, through the default exchange. The queue may be a direct reply-to name
     * ({@code amq.rabbitmq.reply-to.*}) from {@link Delivery#replyTo()}.
     */
    public static OutgoingMessage toQueue(String queue) {
        if (queue == null || queue.isEmpty()) {
            throw new IllegalArgumentException("OutgoingMessage.toQueue needs a queue name, and was given "
                    + (queue == null ? "null (is it the reply-to of a delivery that has none?)" : "\"\""));
        }
        return to("", queue);
    }

    /**
     * The payload, encoded the way subscribers decode it: {@code byte[]}, {@code String}, {@code Buffer} and
     * {@code JsonObject}, {@code JsonArray} as they are, any other object as JSON.
     */
    public OutgoingMessage payload(Object payload) {
        if (payload == null) {
            throw new IllegalArgumentException("The payload of a message to " + destination()
                    + " is null: send an empty byte[] for an empty body");
        }
        return new OutgoingMessage(exchange, routingKey, payload, headers, messageId, correlationId, replyTo,
                contentType, contentEncoding, expirationMillis, priority, persistent, mandatory, broker);
    }

    /**
     * Adds a header (or replaces the one of that name). Values AMQP carries: strings, numbers, booleans, dates, byte
     * arrays, lists and maps of them, {@code null}; any other fails the publish before anything is sent.
     */
    public OutgoingMessage header(String name, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(headers);
        more.put(shortString("header name", required("header name", name)), value);
        return withHeaders(more);
    }

    /** Adds each of these headers, as {@link #header(String, Object)} does. */
    public OutgoingMessage headers(Map<String, ?> headers) {
        Map<String, Object> more = new LinkedHashMap<>(this.headers);
        Objects.requireNonNull(headers, "headers").forEach((name, value) -> more
                .put(shortString("header name", required("header name", name)), value));
        return withHeaders(more);
    }

    /** The message id property; {@code null} for a random UUID, as when it is never set. */
    public OutgoingMessage messageId(String messageId) {
        return new OutgoingMessage(exchange, routingKey, payload, headers, shortString("message id", messageId),
                correlationId, replyTo, contentType, contentEncoding, expirationMillis, priority, persistent, mandatory,
                broker);
    }

    /** The correlation id property (an answer carries its request's); {@code null} for none. */
    public OutgoingMessage correlationId(String correlationId) {
        return new OutgoingMessage(exchange, routingKey, payload, headers, messageId,
                shortString("correlation id", correlationId), replyTo, contentType, contentEncoding, expirationMillis, priority,
                persistent, mandatory, broker);
    }

    /** The reply-to property: the queue an answer should go to; {@code null} for none. */
    public OutgoingMessage replyTo(String replyTo) {
        return new OutgoingMessage(exchange, routingKey, payload, headers, messageId, correlationId,
                shortString("reply-to", replyTo), contentType, contentEncoding, expirationMillis, priority, persistent,
                mandatory, broker);
    }

    /**
     * How long the message may wait in a queue before RabbitMQ expires it (dead-letters it where the queue has a
     * dead-letter exchange, drops it otherwise): the AMQP {@code expiration} property, in whole milliseconds, rounded
     * up. {@code Duration.ZERO} expires it at once unless a consumer can take it; {@code null} for no expiration. At
     * most 2^32 - 1 ms (about 49.7 days), the most RabbitMQ accepts.
     */
    public OutgoingMessage expiration(Duration expiration) {
        long millis = -1;
        if (expiration != null) {
            if (expiration.isNegative()) {
                throw new IllegalArgumentException("The expiration of a message to " + destination()
                        + " cannot be negative, and was " + expiration);
            }
            if (expiration.compareTo(MAX_EXPIRATION) > 0) {
                throw new IllegalArgumentException("The expiration of a message to " + destination() + " is "
                        + expiration + ": RabbitMQ accepts at most " + MAX_EXPIRATION.toMillis()
                        + " ms (about 49.7 days)");
            }
            millis = ceilMillis(expiration);
        }
        return new OutgoingMessage(exchange, routingKey, payload, headers, messageId, correlationId, replyTo,
                contentType, contentEncoding, millis, priority, persistent, mandatory, broker);
    }

    /**
     * The priority property, 0 to 255 (AMQP carries one octet). A queue declared with {@code x-max-priority} delivers
     * higher ones first; other queues ignore it.
     */
    public OutgoingMessage priority(int priority) {
        if (priority < 0 || priority > 255) {
            throw new IllegalArgumentException("The priority of a message to " + destination()
                    + " must be between 0 and 255, and was " + priority);
        }
        return new OutgoingMessage(exchange, routingKey, payload, headers, messageId, correlationId, replyTo,
                contentType, contentEncoding, expirationMillis, priority, persistent, mandatory, broker);
    }

    /**
     * Whether a durable queue keeps the message across a broker restart: delivery mode 2 (the default) or 1
     * (transient).
     */
    public OutgoingMessage persistent(boolean persistent) {
        return new OutgoingMessage(exchange, routingKey, payload, headers, messageId, correlationId, replyTo,
                contentType, contentEncoding, expirationMillis, priority, persistent, mandatory, broker);
    }

    /** The content type property; {@code null} to choose it from the payload, as when it is never set. */
    public OutgoingMessage contentType(String contentType) {
        return new OutgoingMessage(exchange, routingKey, payload, headers, messageId, correlationId, replyTo,
                shortString("content type", contentType), contentEncoding, expirationMillis, priority, persistent, mandatory,
                broker);
    }

    /**
     * The content encoding property (the body's encoding beside its type: {@code gzip}, say), as a consumer reads it to
     * undo it; {@code null} for none. The publisher sends the body as the payload gives it: it does not compress.
     */
    public OutgoingMessage contentEncoding(String contentEncoding) {
        return new OutgoingMessage(exchange, routingKey, payload, headers, messageId, correlationId, replyTo,
                contentType, shortString("content encoding", contentEncoding), expirationMillis, priority, persistent,
                mandatory, broker);
    }

    /**
     * The value a stream's filter matches ({@code @Subscriber(filter)}, RabbitMQ 3.13 and later): the
     * {@code x-stream-filter-value} header, which RabbitMQ reads when it writes the message to a stream.
     */
    public OutgoingMessage filterValue(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("A filter value must not be blank");
        }
        return header(FILTER_VALUE_HEADER, value);
    }

    /**
     * Whether no queue taking the message is a failure. {@code true} (the default): it is published {@code mandatory},
     * and a return (no queue bound for it, a missing queue) fails the send, or the delivery whose output it is.
     * {@code false}: nobody taking it is fine (an event nobody may want yet): it is published without
     * {@code mandatory}, and RabbitMQ drops it quietly where no queue takes it, confirming it all the same. The
     * exchange must exist either way.
     */
    public OutgoingMessage mandatory(boolean mandatory) {
        return new OutgoingMessage(exchange, routingKey, payload, headers, messageId, correlationId, replyTo,
                contentType, contentEncoding, expirationMillis, priority, persistent, mandatory, broker);
    }

    /**
     * Sends it on a named broker ({@code quarkus.rabbitmq-subscriber.brokers."<name>".*}, or {@link Broker#DEFAULT})
     * rather than the publisher's own, or, from a handler's {@link Outputs}, rather than its subscription's: an
     * output to another broker is confirmed there before the delivery is acked, as any output.
     */
    public OutgoingMessage broker(String broker) {
        if (broker == null || broker.isBlank()) {
            throw new IllegalArgumentException("The broker of a message to " + destination() + " is empty: name a "
                    + "configured broker, or Broker.DEFAULT");
        }
        return new OutgoingMessage(exchange, routingKey, payload, headers, messageId, correlationId, replyTo,
                contentType, contentEncoding, expirationMillis, priority, persistent, mandatory, broker);
    }

    // ---- accessors ------------------------------------------------------------------------------------------------

    /** The filter value set with {@link #filterValue(String)}, if any. */
    public Optional<String> filterValue() {
        Object value = headers.get(FILTER_VALUE_HEADER);
        return value == null ? Optional.empty() : Optional.of(value.toString());
    }

    public boolean mandatory() {
        return mandatory;
    }

    /** The broker named with {@link #broker(String)}; empty: the publisher's own (an output: its subscription's). */
    public Optional<String> broker() {
        return Optional.ofNullable(broker);
    }

    /** The exchange; {@code ""} for the default exchange. */
    public String exchange() {
        return exchange;
    }

    /** The routing key; for a message to a queue, the queue's name. */
    public String routingKey() {
        return routingKey;
    }

    /** The payload as given; an empty {@code byte[]} when none was. */
    public Object payload() {
        return payload;
    }

    /** The headers, in the order they were added; never {@code null}, not modifiable. */
    public Map<String, Object> headers() {
        return headers;
    }

    /** The message id given, or {@code null} (the publisher then gives a random UUID). */
    public String messageId() {
        return messageId;
    }

    public String correlationId() {
        return correlationId;
    }

    public String replyTo() {
        return replyTo;
    }

    /** The content type given, or {@code null} (the publisher then chooses it from the payload). */
    public String contentType() {
        return contentType;
    }

    /** The content encoding given, or {@code null}. */
    public String contentEncoding() {
        return contentEncoding;
    }

    /** The expiration, in whole milliseconds. */
    public Optional<Duration> expiration() {
        return expirationMillis < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(expirationMillis));
    }

    public OptionalInt priority() {
        return priority < 0 ? OptionalInt.empty() : OptionalInt.of(priority);
    }

    public boolean persistent() {
        return persistent;
    }

    /** Where it goes, for messages: "queue 'q'", or "exchange 'x' with routing key 'k'". */
    @Override
    public String toString() {
        return "OutgoingMessage to " + destination();
    }

    private String destination() {
        return exchange.isEmpty() ? "queue '" + routingKey + "'"
                : "exchange '" + exchange + "' with routing key '" + routingKey + "'";
    }

    private OutgoingMessage withHeaders(Map<String, Object> more) {
        return new OutgoingMessage(exchange, routingKey, payload, Collections.unmodifiableMap(more), messageId,
                correlationId, replyTo, contentType, contentEncoding, expirationMillis, priority, persistent, mandatory,
                broker);
    }

    private static String required(String what, String value) {
        if (value == null) {
            throw new IllegalArgumentException("A message's " + what + " cannot be null");
        }
        return value;
    }

    /** A value AMQP sends as a short string: {@code null} passes (the property is absent). */
    private static String shortString(String what, String value) {
        if (value != null && value.getBytes(StandardCharsets.UTF_8).length > SHORT_STRING_BYTES) {
            throw new IllegalArgumentException("A message's " + what + " takes at most " + SHORT_STRING_BYTES
                    + " bytes of UTF-8 (an AMQP short string), and '" + value.substring(0, 40) + "...' takes "
                    + value.getBytes(StandardCharsets.UTF_8).length);
        }
        return value;
    }

    private static long ceilMillis(Duration duration) {
        long millis = duration.toMillis();
        return duration.minusMillis(millis).isZero() ? millis : millis + 1;
    }
}
