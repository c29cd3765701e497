package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

/**
 * Text that came with a message (its id, a header, a decoder's quote of the body), made safe for a log line: a
 * publisher must not be able to start a line of its own (CR, LF) or steer a terminal (ESC). Control characters are
 * written as escapes ({@code \r}, {@code \n}, {@code \e}, {@code \u0007}), and a text longer than 200 characters is cut.
 */
public final class LogText {

    private static final int MAX = 200;

    private LogText() {
    }

    public static String of(Object text) {
        if (text == null) {
            return "null";
        }
        String value = text.toString();
        StringBuilder safe = null;
        int length = Math.min(value.length(), MAX);
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            String escape = c == '\r' ? "\\r"
                    : c == '\n' ? "\\n"
                            : c == 0x1b ? "\\e"
                                    : (c < 0x20 && c != '\t') || c == 0x7f || c == '\u2028' || c == '\u2029'
                                            ? String.format("\\u%04x", (int) c)
                                            : null;
            if (escape != null && safe == null) {
                safe = new StringBuilder(value.length() + 16).append(value, 0, i);
            }
            if (safe != null) {
                if (escape != null) {
                    safe.append(escape);
                } else {
                    safe.append(c);
                }
            }
        }
        String result = safe != null ? safe.toString() : value.substring(0, length);
        return value.length() > MAX ? result + "...(" + value.length() + " characters)" : result;
    }
}
