package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

/**
 * A RabbitMQ version as the broker tells it ({@code 4.3.6}), and what a subscription may ask of a broker of that
 * version. Unknown (empty, or not a version) counts as able: the broker then answers for itself.
 */
public record ServerVersion(String text, int major, int minor) {

    public static ServerVersion of(String text) {
        String[] parts = text == null ? new String[0] : text.trim().split("[.+-]");
        try {
            return new ServerVersion(text, Integer.parseInt(parts[0]), parts.length > 1 ? Integer.parseInt(parts[1]) : 0);
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return new ServerVersion(text == null ? "" : text, Integer.MAX_VALUE, 0);
        }
    }

    public boolean known() {
        return major != Integer.MAX_VALUE;
    }

    public boolean atLeast(int major, int minor) {
        return this.major > major || (this.major == major && this.minor >= minor);
    }

    /** Quorum queues hold failed deliveries back on the server ({@code x-delayed-retry-*}) from RabbitMQ 4.3. */
    public boolean delaysQuorumRetries() {
        return atLeast(4, 3);
    }

    /**
     * The delayed-message-exchange plugin keeps its messages in Mnesia, which RabbitMQ 4.3 removed: it cannot run
     * there (its repository was archived in January 2026).
     */
    public boolean runsDelayedMessagePlugin() {
        return !known() || !atLeast(4, 3);
    }

    @Override
    public String toString() {
        return "RabbitMQ " + text;
    }
}
