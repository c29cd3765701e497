package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

/** AMQP topic matching: words separated by dots, {@code *} one word, {@code #} zero or more words. */
final class TopicPattern {

    private TopicPattern() {
    }

    static boolean matches(String pattern, String routingKey) {
        return matches(pattern.split("\\.", -1), 0, routingKey.split("\\.", -1), 0);
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
