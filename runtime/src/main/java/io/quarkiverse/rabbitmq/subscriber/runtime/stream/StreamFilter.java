package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import java.util.Set;

/**
 * A stream subscription's filter ({@code @Subscriber(filter)}, RabbitMQ 3.13 and later): RabbitMQ sends only the
 * chunks whose Bloom filter may hold one of the values, and {@link #matches} drops the false positives (messages of
 * another value, or of none) before the handler, whichever broker the stream is read from.
 */
final class StreamFilter {

    private final Set<String> values;

    StreamFilter(Set<String> values) {
        this.values = Set.copyOf(values);
    }

    /** Whether a message of this filter value (null: none) is one the subscription reads. */
    boolean matches(String value) {
        return values.isEmpty() || value != null && values.contains(value);
    }

    Set<String> values() {
        return values;
    }
}
