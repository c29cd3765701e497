package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.Delay;

/**
 * What makes a {@code @RetryDelay} (the server's delayed retry, RabbitMQ 4.3+) unusable: checked at build time with
 * the rest of {@link SubscriptionRules}. Whether the broker has it is known only at startup
 * ({@code ServerCapabilities}). Each text completes {@code "@Subscriber method <method> "}.
 */
final class RetryDelayRules {

    private RetryDelayRules() {
    }

    static void check(SubscriptionSpec subscription, SubscriptionDeclaration declared, List<String> problems) {
        String min = declared.retryDelayMin;
        String max = declared.retryDelayMax;
        if (min.isBlank()) {
            if (!max.isBlank()) {
                problems.add("sets @RetryDelay(max = \"" + max + "\") without min: give the first wait, e.g. "
                        + "@RetryDelay(min = \"1s\", max = \"" + max + "\")");
            }
            return;
        }
        long minMillis = millis("min", min, problems);
        if (minMillis == 0) {
            // min = 0 (a configuration switching an annotation's delayed retry off): none.
            return;
        }
        long maxMillis = max.isBlank() ? 0 : millis("max", max, problems);
        if (minMillis > 0 && maxMillis > 0 && maxMillis < minMillis) {
            problems.add("sets @RetryDelay(min = \"" + min + "\", max = \"" + max + "\"): the longest wait is shorter "
                    + "than the first");
        }
        if (!subscription.quorum()) {
            problems.add("sets retryDelay on classic queue '" + subscription.queue + "': only quorum queues delay "
                    + "retries on the server (RabbitMQ 4.3 and later); use type = QueueType.QUORUM, or on a classic "
                    + "queue backoff with delay = DLX_TTL");
        }
        if (!declared.backoffInitial.isBlank() && subscription.backoffInitialMillis > 0) {
            problems.add("sets both retryDelay and backoff: with the server's delayed retry the server waits after "
                    + "each failure; remove backoff");
        }
        if (subscription.delay != Delay.IN_SERVICE) {
            problems.add("sets delay = " + subscription.delay + " with retryDelay: with the server's delayed retry "
                    + "nothing waits in waiting queues or the delayed-message exchange (retryAfter waits what the "
                    + "server says); remove delay");
        }
    }

    private static long millis(String name, String text, List<String> problems) {
        try {
            long millis = DelayLabel.parse(text);
            if (millis < 0 || (millis == 0 && name.equals("max"))) {
                problems.add("sets @RetryDelay(" + name + " = \"" + text + "\"): a wait must be longer than zero");
                return -1;
            }
            return millis;
        } catch (IllegalArgumentException e) {
            problems.add("sets @RetryDelay(" + name + "): " + e.getMessage());
            return -1;
        }
    }
}
