package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.ServerVersion;

/**
 * What a subscription asks of the broker that the broker it connected to cannot do, known only at startup (the build
 * does not know the broker): checked before anything is declared, so the application refuses to start naming the
 * version and what to use instead, rather than finding out at the first retry.
 */
public final class ServerRules {

    private ServerRules() {
    }

    /** One text per subscription and thing the broker cannot do, in the order given. */
    public static List<String> problems(List<SubscriptionSpec> subscriptions, ServerVersion broker) {
        List<String> problems = new ArrayList<>();
        for (SubscriptionSpec subscription : subscriptions) {
            if (subscription.consumerArguments.containsKey(StreamOffset.FILTER_ARGUMENT) && broker.known()
                    && !broker.atLeast(3, 13)) {
                problems.add("Stream '" + subscription.queue + "' sets filter, which " + broker + " does not have: "
                        + "stream filters came with RabbitMQ 3.13. Upgrade the broker, or remove filter and check "
                        + "the messages in the handler");
            }
            if (subscription.superStream() && broker.known() && !broker.atLeast(3, 11)) {
                problems.add("Super stream '" + subscription.queue + "' (a stream with partitions = "
                        + subscription.partitioning.count + ") needs RabbitMQ 3.11 or later, which has its single "
                        + "active consumer per partition; " + broker + " does not. Upgrade the broker, or consume one "
                        + "stream (remove partitions)");
            }
            if (subscription.delay == Delay.PLUGIN && !broker.runsDelayedMessagePlugin()) {
                problems.add("Queue '" + subscription.queue + "' sets delay = PLUGIN, which cannot work on " + broker
                        + ": the delayed-message-exchange plugin keeps its messages in Mnesia, which RabbitMQ 4.3 "
                        + "removed (the plugin is no longer maintained). Use delay = DLX_TTL or DLX_TTL_PER_DELAY "
                        + "(waiting queues, no plugin), or on a quorum queue retryDelay = @RetryDelay(min = \"1s\") "
                        + "(the server's own delayed retry)");
            }
            if (subscription.serverDelaysRetries() && !broker.delaysQuorumRetries()) {
                problems.add("Queue '" + subscription.queue + "' sets retryDelay (the server's delayed retry), which "
                        + broker + " does not have: it came with RabbitMQ 4.3, and an older broker accepts the queue "
                        + "arguments and ignores them, so every retry would come back at once. Upgrade the broker to "
                        + "4.3 or later, or use backoff = @Backoff(initial = \"1s\") with delay = DLX_TTL");
            }
            if (subscription.consumerArguments.containsKey(ConsumerArgumentRules.TIMEOUT)
                    && !broker.delaysQuorumRetries()) {
                problems.add("Queue '" + subscription.queue + "' sets consumer argument "
                        + ConsumerArgumentRules.TIMEOUT + ", which " + broker + " ignores: a consumer's own timeout came "
                        + "with RabbitMQ 4.3. Remove it (the broker's consumer_timeout applies), or upgrade the broker");
            }
        }
        return problems;
    }
}
