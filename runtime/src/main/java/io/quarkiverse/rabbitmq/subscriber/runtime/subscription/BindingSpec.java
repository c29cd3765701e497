package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.quarkiverse.rabbitmq.subscriber.ExchangeType;
import io.quarkus.runtime.annotations.RecordableConstructor;

/**
 * One {@code @Binding} of a subscription's queue, its defaults applied: the exchange, its type, the binding keys (one
 * binding each; a fanout or headers exchange has the one key {@code ""}), and the binding's typed arguments.
 * Immutable.
 */
public final class BindingSpec {

    public final String exchange;
    public final ExchangeType type;
    public final List<String> keys;
    public final Map<String, Object> arguments;

    @RecordableConstructor
    public BindingSpec(String exchange, ExchangeType type, List<String> keys, Map<String, Object> arguments) {
        this.exchange = exchange;
        this.type = type;
        this.keys = List.copyOf(keys);
        // In the order written, so a recorded build is reproducible.
        this.arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
    }

    /**
     * The binding as declared: keys default to {@code #} on a topic exchange and to the queue's name on a direct one;
     * a fanout or headers exchange ignores keys, so it is bound with {@code ""} (the rules refuse keys there).
     */
    public static BindingSpec of(String queue, String exchange, ExchangeType type, List<String> keys,
            List<String> argumentTexts) {
        List<String> effective = switch (type) {
            case TOPIC -> keys.isEmpty() ? List.of("#") : keys;
            case DIRECT -> keys.isEmpty() ? List.of(queue) : keys;
            case FANOUT, HEADERS -> List.of("");
        };
        return new BindingSpec(exchange, type, effective, ArgumentText.parse(argumentTexts));
    }

    /** The exchange whose name starts with {@code amq.} is RabbitMQ's own: checked, never declared. */
    public boolean builtIn() {
        return exchange.startsWith("amq.");
    }

    /** This binding with its exchange and keys passed through {@code names} (names from configuration). */
    BindingSpec withNames(UnaryOperator<String> names) {
        return new BindingSpec(names.apply(exchange), type, keys.stream().map(names).toList(), arguments);
    }

    @Override
    public String toString() {
        return type.wireName() + " exchange '" + exchange + "'" + (type == ExchangeType.TOPIC
                || type == ExchangeType.DIRECT ? " under " + keys : "") + (arguments.isEmpty() ? "" : " " + arguments);
    }
}
