package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.List;

/**
 * A first wait and a longest one as an annotation writes them ({@code @Backoff(initial, max)},
 * {@code @RetryDelay(min, max)}), judged alike: durations longer than zero, the longest no shorter than the first, no
 * longest without a first. Each text completes {@code "@Subscriber method <method> "}.
 */
final class WaitBounds {

    private WaitBounds() {
    }

    /**
     * @param annotation {@code Backoff} or {@code RetryDelay}
     * @param firstName the first wait's attribute ({@code initial}, {@code min})
     * @return the first and the longest wait in milliseconds (-1 for one that is no duration, 0 for no longest), or
     *         null when there is no first wait (empty, or 0: a configuration switching an annotation's off)
     */
    static long[] judge(String annotation, String firstName, String first, String max, List<String> problems) {
        if (first.isBlank()) {
            if (!max.isBlank()) {
                problems.add("sets @" + annotation + "(max = \"" + max + "\") without " + firstName
                        + ": give the first wait, e.g. @" + annotation + "(" + firstName + " = \"1s\", max = \"" + max
                        + "\")");
            }
            return null;
        }
        long firstMillis = millis(annotation, firstName, first, problems);
        if (firstMillis == 0) {
            return null;
        }
        long maxMillis = max.isBlank() ? 0 : millis(annotation, "max", max, problems);
        if (firstMillis > 0 && maxMillis > 0 && maxMillis < firstMillis) {
            problems.add("sets @" + annotation + "(" + firstName + " = \"" + first + "\", max = \"" + max
                    + "\"): the longest wait is shorter than the first");
        }
        return new long[] { firstMillis, maxMillis };
    }

    private static long millis(String annotation, String name, String text, List<String> problems) {
        try {
            long millis = DelayLabel.parse(text);
            if (millis < 0 || (millis == 0 && name.equals("max"))) {
                problems.add("sets @" + annotation + "(" + name + " = \"" + text + "\"): a wait must be longer than zero");
                return -1;
            }
            return millis;
        } catch (IllegalArgumentException e) {
            problems.add("sets @" + annotation + "(" + name + "): " + e.getMessage());
            return -1;
        }
    }
}
