package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

import java.util.List;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

/**
 * What an observer may show as gauges, read each time a gauge is read: handed to {@link Observer#watch} once the
 * subscribers started.
 *
 * @param queues the subscribed queues, sorted
 * @param holdingQueues those whose handlers' {@code retryAfter} copies wait in this service ({@code IN_SERVICE})
 * @param heldCopies in-service delayed copies waiting, by queue
 * @param inFlight deliveries handed to handlers and not settled yet
 * @param paused whether the subscriber of a queue is paused, by the application or by its kill switch
 * @param partitionQueues the queues that are partitions of a partitioned subscription, sorted
 * @param activePartition whether this instance is active (or taking over) on a partition queue, where the broker
 *        spreads partitions over the instances
 * @param streams the streams read by stream subscriptions, a super stream's partitions each, sorted
 * @param streamLag how many messages of a stream are past the offset its consumer stored here, NaN where none reads it
 */
public record LiveFigures(List<String> queues, List<String> holdingQueues, ToIntFunction<String> heldCopies,
        IntSupplier inFlight, Predicate<String> paused, List<String> partitionQueues,
        Predicate<String> activePartition, List<String> streams, ToDoubleFunction<String> streamLag) {
}
