package io.quarkiverse.rabbitmq.subscriber.runtime;

import java.util.List;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.Partitioning;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;

/**
 * What the startup says about each subscription once consuming has started: its partitions (and a warning when a
 * partitioned one has no {@code maxAttempts}), copies delayed in this service, a quorum queue that nothing caps. Apart
 * from {@code SubscriberEngine}, which orders the start and the stop: these lines only read the definitions and
 * change nothing. Logs under the engine's category, as it did when the engine wrote them itself.
 */
final class SubscriptionNotices {

    /** The engine's category, as log configurations name it: these lines were the engine's own. */
    private static final Logger LOG = Logger.getLogger("io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberEngine");

    private SubscriptionNotices() {
    }

    /** One INFO or WARN per fact worth knowing about a subscription, in the definitions' order. */
    static void log(List<SubscriberDefinition> definitions) {
        for (SubscriberDefinition definition : definitions) {
            Partitioning partitioning = definition.subscription.partitioning;
            if (partitioning != null && definition.subscription.stream()) {
                LOG.infof("'%s': a super stream of %d partitions (streams %s-0 to %s-%d), hashing the %s as the stream "
                        + "client does; RabbitMQ makes one instance the active consumer of each partition and spreads "
                        + "them over the instances", definition.subscription.queue, partitioning.count,
                        definition.subscription.queue, definition.subscription.queue, partitioning.count - 1,
                        partitioning.key.replace(':', ' '));
                continue;
            }
            if (partitioning != null) {
                if (partitioning.index == 0) {
                    LOG.infof("'%s': %d ordered partitions (queues %s.0 to %s.%d, single active consumer) behind its "
                            + "consistent-hash exchange, hashing the %s; a retry waits in this service and holds its "
                            + "partition", partitioning.exchange, partitioning.count, partitioning.exchange,
                            partitioning.exchange, partitioning.count - 1, partitioning.key.replace(':', ' '));
                    if (definition.subscription.maxAttempts == 0) {
                        LOG.warnf("'%s' has partitions and no maxAttempts: a message that always fails is retried in "
                                + "place for ever, and the messages behind it in its partition wait; set maxAttempts "
                                + "and deadLetter", partitioning.exchange);
                    }
                }
                continue;
            }
            if (definition.holdsCopies()) {
                // A fact of the strategy, not a warning: most handlers never delay anything.
                LOG.infof("Queue '%s': delayed copies (%s) wait in this service until due (delay IN_SERVICE), and a "
                        + "graceful stop publishes them at once; delay = DLX_TTL keeps them in RabbitMQ instead",
                        definition.subscription.queue, definition.canDelay()
                                ? definition.subscription.backoff().waits() ? "retryAfter, back-off" : "retryAfter"
                                : "back-off");
            }
            if (definition.subscription.quorum() && !definition.subscription.serverCounts()) {
                LOG.warnf("Queue '%s' is a quorum queue without maxAttempts or deliveryLimit: a failing message is "
                        + "requeued and the server counts its deliveries. Unless the queue has its own "
                        + "x-delivery-limit, RabbitMQ 4 drops it (or dead-letters it through the queue's own route) "
                        + "after 20 redeliveries, and RabbitMQ 3 redelivers it for ever",
                        definition.subscription.queue);
            }
        }
    }
}
