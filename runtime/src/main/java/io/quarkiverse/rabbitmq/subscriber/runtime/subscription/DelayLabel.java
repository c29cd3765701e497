package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A delay as it appears in a waiting queue's name: in the largest unit that divides it ({@code 500ms}, {@code 30s},
 * {@code 5m}, {@code 2h}), so an operator reads the delay off the queue list.
 */
public final class DelayLabel {

    private DelayLabel() {
    }

    private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?");

    /**
     * Reads a delay the way Quarkus reads durations in its configuration: {@code 500ms}, {@code 30s}, {@code 5m},
     * {@code 2h}, {@code 1d}, a bare number of seconds, or ISO-8601 ({@code PT30S}). Returns milliseconds.
     *
     * @throws IllegalArgumentException naming the text, when it is no duration
     */
    public static long parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        Matcher matcher = SHORT.matcher(trimmed);
        try {
            if (matcher.matches()) {
                long amount = Long.parseLong(matcher.group(1));
                String unit = matcher.group(2) == null ? "s" : matcher.group(2);
                return switch (unit) {
                    case "ms" -> amount;
                    case "s" -> Math.multiplyExact(amount, 1000L);
                    case "m" -> Math.multiplyExact(amount, 60_000L);
                    case "h" -> Math.multiplyExact(amount, 3_600_000L);
                    default -> Math.multiplyExact(amount, 86_400_000L);
                };
            }
            return Duration.parse(trimmed.startsWith("P") || trimmed.startsWith("-") ? trimmed : "PT" + trimmed)
                    .toMillis();
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (write it as 500ms, 30s, 5m, 2h, "
                    + "1d or PT30S)");
        }
    }

    public static String of(long millis) {
        if (millis > 0 && millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis > 0 && millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis > 0 && millis % 1000 == 0) {
            return millis / 1000 + "s";
        }
        return millis + "ms";
    }
}
