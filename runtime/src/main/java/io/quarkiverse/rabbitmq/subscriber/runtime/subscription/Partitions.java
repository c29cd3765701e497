package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits each partitioned subscription into its partitions, once its names are final: the topology plans them and the
 * engine runs them as subscriptions of their own, one per partition queue. The others pass as they are; so do
 * partitions already split, and super streams.
 */
public final class Partitions {

    private Partitions() {
    }

    /** The subscriptions with each partitioned one replaced by its partitions, in order. */
    public static List<SubscriptionSpec> split(List<SubscriptionSpec> subscriptions) {
        List<SubscriptionSpec> split = new ArrayList<>();
        for (SubscriptionSpec subscription : subscriptions) {
            if (needsSplit(subscription)) {
                for (int index = 0; index < subscription.partitioning.count; index++) {
                    split.add(subscription.partition(index));
                }
            } else {
                split.add(subscription);
            }
        }
        return split;
    }

    /** The subscribers with each partitioned one replaced by one subscriber per partition, in order. */
    public static List<SubscriberDefinition> splitSubscribers(List<SubscriberDefinition> definitions) {
        List<SubscriberDefinition> split = new ArrayList<>();
        for (SubscriberDefinition definition : definitions) {
            if (needsSplit(definition.subscription)) {
                for (int index = 0; index < definition.subscription.partitioning.count; index++) {
                    split.add(definition.with(definition.subscription.partition(index)));
                }
            } else {
                split.add(definition);
            }
        }
        return split;
    }

    private static boolean needsSplit(SubscriptionSpec subscription) {
        // A super stream stays one subscription: the stream client reads its partitions, and the broker chooses which of
        // them this instance is the active consumer of.
        return subscription.partitioned() && !subscription.partitioning.isPartition() && !subscription.stream();
    }
}
