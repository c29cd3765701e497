package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Queue and binding arguments as users write them, {@code name=value}, and the typed value each becomes on the wire:
 * {@code true}/{@code false} a boolean, an integer a long, anything else text. One reading for the annotation's
 * texts and the configuration's values.
 */
public final class ArgumentText {

    private static final Pattern INTEGER = Pattern.compile("-?\\d{1,18}");

    private ArgumentText() {
    }

    /** The typed value of one argument's text. */
    public static Object value(String text) {
        String trimmed = text.trim();
        if (trimmed.equals("true") || trimmed.equals("false")) {
            return Boolean.valueOf(trimmed);
        }
        if (INTEGER.matcher(trimmed).matches()) {
            return Long.valueOf(trimmed);
        }
        return trimmed;
    }

    /** The name of a {@code name=value} text, or null when it has no {@code =} or no name. */
    public static String name(String text) {
        int equals = text.indexOf('=');
        return equals <= 0 || text.substring(0, equals).isBlank() ? null : text.substring(0, equals).trim();
    }

    /** The arguments of these texts, in their order; a text without a name is left out (the rules name it). */
    public static Map<String, Object> parse(List<String> texts) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        for (String text : texts) {
            String name = name(text);
            if (name != null) {
                arguments.put(name, value(text.substring(text.indexOf('=') + 1)));
            }
        }
        return arguments;
    }
}
