package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig.BrokerKind;
import io.quarkus.runtime.LaunchMode;

/**
 * What {@code broker=auto} does when RabbitMQ cannot be reached: in dev and test mode, fall back to the in-process
 * broker with one loud warning; in prod mode, refuse to start. Kept apart so the decision is tested without a broker.
 */
public final class BrokerChoice {

    private BrokerChoice() {
    }

    /** The warning to log when falling back, or an exception when the fallback is not allowed. */
    public static String fallbackWarning(BrokerKind kind, LaunchMode mode, String address, String reason) {
        if (kind != BrokerKind.AUTO) {
            throw new IllegalStateException("Cannot connect to RabbitMQ at " + address + ": " + reason
                    + ". Set quarkus.rabbitmq-subscriber.url to the broker's address.");
        }
        if (mode == LaunchMode.NORMAL) {
            throw new IllegalStateException("quarkus.rabbitmq-subscriber.broker=auto found no RabbitMQ at " + address
                    + " (" + reason + "). In prod mode auto never falls back to the in-process broker: start RabbitMQ, "
                    + "set quarkus.rabbitmq-subscriber.url, or choose broker=in-process deliberately.");
        }
        return "\n*****************************************************************************************\n"
                + " No RabbitMQ reachable at " + address + " (" + reason + ").\n"
                + " broker=auto is using the IN-PROCESS broker: messages live in this process only and are\n"
                + " lost when it stops. Start RabbitMQ (or set quarkus.rabbitmq-subscriber.url) to use a real one.\n"
                + "*****************************************************************************************";
    }
}
