package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

/**
 * AMQP topic matching as RabbitMQ does it: words separated by dots, {@code *} one word, {@code #} zero or more. Words
 * may be empty ({@code "a."} is {@code a} and an empty word), but an empty key has no words at all: {@code *} does
 * not match it, {@code #} and the empty binding key do.
 */
final class TopicPattern {

    private static final String[] NO_WORDS = new String[0];

    private TopicPattern() {
    }

    static boolean matches(String pattern, String routingKey) {
        return matches(words(pattern), 0, words(routingKey), 0);
    }

    /** As RabbitMQ splits a key: {@code ""} is no word, where String.split would give one empty word. */
    private static String[] words(String key) {
        return key.isEmpty() ? NO_WORDS : key.split("\\.", -1);
    }

    private static boolean matches(String[] pattern, int p, String[] words, int w) {
        if (p == pattern.length) {
            return w == words.length;
        }
        if (pattern[p].equals("#")) {
            for (int skip = w; skip <= words.length; skip++) {
                if (matches(pattern, p + 1, words, skip)) {
                    return true;
                }
            }
            return false;
        }
        if (w == words.length) {
            return false;
        }
        return (pattern[p].equals("*") || pattern[p].equals(words[w])) && matches(pattern, p + 1, words, w + 1);
    }
}
