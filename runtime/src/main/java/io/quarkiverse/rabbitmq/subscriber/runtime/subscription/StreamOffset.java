package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Where a stream subscription starts reading when its consumer has no stored offset ({@code @Subscriber(offset)}):
 * {@code first}, {@code last}, {@code next}, {@code offset:<n>}, {@code timestamp:<ISO-8601>} or
 * {@code ago:<duration>}. Parsed once at build time, so a spec that does not parse fails the build naming it; read
 * again at startup, where {@code ago:} becomes a timestamp on the runtime's clock.
 *
 * @param kind what the spec names
 * @param value the offset ({@code offset:}), the epoch milliseconds ({@code timestamp:}) or the milliseconds back
 *        ({@code ago:}); 0 otherwise
 */
public record StreamOffset(Kind kind, long value) {

    /** The consumer argument that carries the spec from the subscription to the stream consumer, as RabbitMQ names it. */
    public static final String ARGUMENT = "x-stream-offset";

    /**
     * The consumer argument that carries a stream subscription's filter values (a list), as RabbitMQ names it for
     * AMQP 0.9.1 consumers of a stream.
     */
    public static final String FILTER_ARGUMENT = "x-stream-filter";

    /** A new consumer starts with the next message written, as RabbitMQ's stream clients do. */
    public static final String DEFAULT = "next";

    public enum Kind {
        FIRST,
        LAST,
        NEXT,
        OFFSET,
        TIMESTAMP,
        AGO
    }

    /**
     * @throws IllegalArgumentException naming the spec and what it may be
     */
    public static StreamOffset parse(String spec) {
        String text = spec == null ? "" : spec.trim();
        int colon = text.indexOf(':');
        String head = (colon < 0 ? text : text.substring(0, colon)).toLowerCase(java.util.Locale.ROOT);
        String rest = colon < 0 ? null : text.substring(colon + 1).trim();
        try {
            switch (head) {
                case "first":
                case "last":
                case "next":
                    if (rest == null) {
                        return new StreamOffset(Kind.valueOf(head.toUpperCase(java.util.Locale.ROOT)), 0);
                    }
                    break;
                case "offset":
                    if (rest != null) {
                        long offset = Long.parseLong(rest);
                        if (offset >= 0) {
                            return new StreamOffset(Kind.OFFSET, offset);
                        }
                    }
                    break;
                case "timestamp":
                    if (rest != null) {
                        return new StreamOffset(Kind.TIMESTAMP, Instant.parse(rest).toEpochMilli());
                    }
                    break;
                case "ago":
                    if (rest != null) {
                        long millis = DelayLabel.parse(rest);
                        if (millis >= 0) {
                            return new StreamOffset(Kind.AGO, millis);
                        }
                    }
                    break;
                default:
                    break;
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            // Reported below, with what the spec may be.
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("offset '" + spec + "' does not parse: " + e.getMessage());
        }
        throw new IllegalArgumentException("offset '" + spec + "' does not parse: write first, last, next, offset:<n> "
                + "(n >= 0), timestamp:<ISO-8601 instant, as 2026-01-31T10:00:00Z> or ago:<duration, as 10m>");
    }

    /** The epoch milliseconds a {@code timestamp:} or {@code ago:} spec starts at, {@code now} being the clock's. */
    public long timestampAt(long now) {
        return kind == Kind.AGO ? now - value : value;
    }
}
