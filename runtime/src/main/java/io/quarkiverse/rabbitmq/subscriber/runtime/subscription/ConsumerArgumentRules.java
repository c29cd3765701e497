package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.List;

/**
 * The consumer arguments ({@code @Subscriber(consumerArguments)}): each {@code name=value}, one RabbitMQ knows for a
 * consumer of this queue, of the right type and range. Whether the broker honours {@code x-consumer-timeout} is known
 * only at startup ({@link ServerRules}). Each text completes {@code "@Subscriber method <method> "}.
 */
final class ConsumerArgumentRules {

    static final String PRIORITY = "x-priority";
    static final String TIMEOUT = "x-consumer-timeout";

    private ConsumerArgumentRules() {
    }

    static void check(SubscriptionSpec subscription, List<String> texts, List<String> problems) {
        for (String text : texts) {
            if (ArgumentText.name(text) == null) {
                problems.add("declares consumer argument '" + text + "', which is not name=value");
            }
        }
        // The written ones: a stream's offset spec joins them in the subscription, and StreamRules judges it.
        ArgumentText.parse(texts).forEach((name, value) -> {
            String named = "declares consumer argument " + name + "=" + value;
            if (name.equals(PRIORITY)) {
                if (!(value instanceof Long)) {
                    problems.add(named + ": it must be a whole number (a higher one gets deliveries first)");
                }
            } else if (name.equals(TIMEOUT)) {
                if (!(value instanceof Long millis) || millis < 1) {
                    problems.add(named + ": it must be a whole number of 1 or more (milliseconds a delivery may stay "
                            + "unsettled)");
                } else if (!subscription.quorum()) {
                    problems.add(named + ": RabbitMQ times out the consumers of quorum queues only (4.3 and later); "
                            + "use type = QueueType.QUORUM, or remove it");
                }
            } else {
                problems.add(named + ": RabbitMQ knows " + PRIORITY + " and " + TIMEOUT + " for a consumer of a "
                        + "queue; remove it, or declare a queue argument with arguments");
            }
        });
    }
}
