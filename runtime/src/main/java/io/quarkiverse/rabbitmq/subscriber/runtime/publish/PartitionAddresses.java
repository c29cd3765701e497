package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.util.Map;
import java.util.TreeMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.runtime.FoundSubscribers;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.Partitioning;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SuperStream;

/**
 * Where a message for a partitioned subscription of this application goes ({@code RabbitPublisher.toPartition},
 * {@code Outputs.toPartition}): its consistent-hash exchange, with the key where that exchange reads it; or a super
 * stream's exchange, with the binding key of the key's partition.
 */
@Singleton
public class PartitionAddresses {

    @Inject
    FoundSubscribers found;

    private volatile Map<String, Partitioning> bySubscription;

    /** A message for {@code subscription}'s partitions, carrying {@code key}; fails naming the partitioned ones. */
    public OutgoingMessage address(String subscription, String key) {
        Partitioning partitioning = partitioned().get(subscription);
        if (partitioning == null) {
            throw new IllegalArgumentException("'" + subscription + "' is not a partitioned subscription of this "
                    + "application (" + (partitioned().isEmpty() ? "it has none"
                            : "its partitioned subscriptions: " + String.join(", ", partitioned().keySet()))
                    + "). To publish to another service's partitions, send to their exchange (the subscription's "
                    + "name) with the key where its partitionKey says: OutgoingMessage.to(name, key) for the routing "
                    + "key, .header(name, key) or .messageId(key) otherwise");
        }
        return partitioning.isPartition() ? partitioning.addressed(key)
                : SuperStream.addressed(subscription, partitioning, key);
    }

    private Map<String, Partitioning> partitioned() {
        Map<String, Partitioning> map = bySubscription;
        if (map == null) {
            map = new TreeMap<>();
            for (SubscriberDefinition definition : found.definitions()) {
                Partitioning partitioning = definition.subscription.partitioning;
                if (partitioning != null && partitioning.isPartition()) {
                    map.putIfAbsent(partitioning.exchange, partitioning);
                } else if (partitioning != null && definition.subscription.superStream()) {
                    map.putIfAbsent(definition.subscription.queue, partitioning);
                }
            }
            bySubscription = map;
        }
        return map;
    }
}
