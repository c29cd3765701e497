package io.quarkiverse.rabbitmq.subscriber.runtime.config;

import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The named brokers a configuration has, read from its property names ({@code quarkus.rabbitmq-subscriber.brokers.
 * "<name>".*}, the name quoted or not): what the build checks {@code @Subscriber(broker)} and {@code @Broker} against,
 * since the run-time settings of a broker (its url) are not a build-time map's keys.
 */
public final class BrokerNames {

    private static final String PREFIX = "quarkus.rabbitmq-subscriber.brokers.";

    private BrokerNames() {
    }

    /** The names under {@code quarkus.rabbitmq-subscriber.brokers}, sorted. */
    public static SortedSet<String> configured(Iterable<String> propertyNames) {
        SortedSet<String> names = new TreeSet<>();
        for (String property : propertyNames) {
            String name = nameIn(property);
            if (name != null) {
                names.add(name);
            }
        }
        return names;
    }

    /** The broker name a property sets something of, or null when it is not a named broker's. */
    static String nameIn(String property) {
        if (property.startsWith("%") && property.indexOf('.') > 0) {
            // A profile's property (%prod.quarkus...): the broker is configured in that profile.
            property = property.substring(property.indexOf('.') + 1);
        }
        if (!property.startsWith(PREFIX)) {
            return null;
        }
        String rest = property.substring(PREFIX.length());
        if (rest.startsWith("\"")) {
            int close = rest.indexOf('"', 1);
            return close > 1 && rest.length() > close + 1 && rest.charAt(close + 1) == '.' ? rest.substring(1, close)
                    : null;
        }
        int dot = rest.indexOf('.');
        return dot > 0 ? rest.substring(0, dot) : null;
    }

    /** How an unknown name is reported: the configured ones, or that there are none. */
    public static String listed(SortedSet<String> names) {
        return names.isEmpty() ? "no named broker is configured" : "the configured ones are " + names;
    }
}
