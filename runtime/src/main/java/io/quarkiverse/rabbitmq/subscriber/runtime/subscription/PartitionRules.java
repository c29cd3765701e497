package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.quarkiverse.rabbitmq.subscriber.Delay;

/**
 * What makes ordered partitions ({@code @Subscriber(partitions, partitionKey)}) unusable: checked at build time with the
 * rest of {@link SubscriptionRules}. Each text completes {@code "@Subscriber method <method> "}.
 * <p>
 * The order of a key holds only if a message that is retried keeps its place: it waits in the service, and its
 * partition with it. So every way of retrying elsewhere is refused (a waiting queue, the delayed-message exchange, the
 * server's delayed retry, which on RabbitMQ 4.3 lets later messages overtake the held one), as is handling more than
 * one message of a partition at a time.
 */
final class PartitionRules {

    /** More would be thousands of queues, consumers and bindings for one subscription. */
    static final int MAX_PARTITIONS = 1024;

    private PartitionRules() {
    }

    static void check(SubscriptionSpec subscription, SubscriptionDeclaration declared, List<String> problems) {
        if (declared.partitions == 0) {
            if (!declared.partitionKey.isBlank()) {
                problems.add("sets partitionKey = '" + declared.partitionKey + "' without partitions: set partitions "
                        + "to the number of partition queues, or remove partitionKey");
            }
            return;
        }
        if (declared.partitions < 0 || declared.partitions > MAX_PARTITIONS) {
            problems.add("sets partitions = " + declared.partitions + ": it must be between 1 and " + MAX_PARTITIONS
                    + " (0, the default: none)");
            return;
        }
        Partitioning partitioning = subscription.partitioning;
        if (!partitioning.keyKnown()) {
            problems.add("sets partitionKey = '" + declared.partitionKey + "': use \"routing-key\" (the default), "
                    + "\"message-id\" or \"header:<name>\"");
        }
        if (subscription.concurrency > 1) {
            problems.add("sets concurrency = " + subscription.concurrency + " with partitions: " + (subscription.stream()
                    ? "a super stream's messages are handled one at a time, which keeps the order of each partition; "
                            + "for more at once, run more instances (RabbitMQ spreads the partitions over them)"
                    : "a partition is handled one message at a time, which keeps the order of its keys; for more at "
                            + "once, raise partitions"));
        }
        if (subscription.stream()) {
            // A super stream: what cannot apply to a log is StreamRules'; a retry already waits in place.
            if (!subscription.bindings.isEmpty()) {
                problems.add("sets bindings on a super stream: messages reach its partitions through its exchange '"
                        + subscription.queue + "' only, routed by partition; publish with "
                        + "RabbitPublisher.toPartition, or bind that exchange to yours");
            }
            return;
        }
        if (subscription.delay != Delay.IN_SERVICE) {
            problems.add("sets delay = " + subscription.delay + " with partitions: a retried message would wait "
                    + "outside its partition and the messages behind it would overtake it; with partitions a retry "
                    + "waits in the service (remove delay)");
        }
        if (subscription.retryDelayMinMillis > 0) {
            problems.add("sets retryDelay with partitions: while the server holds the retried message back it "
                    + "delivers the ones behind it (measured on RabbitMQ 4.3), which breaks the order of its key; use "
                    + "backoff, which waits in the service with the message kept in its place");
        }
        if (!subscription.bindings.isEmpty()) {
            problems.add("sets bindings with partitions: messages reach the partition queues through the "
                    + "consistent-hash exchange '" + subscription.queue + "' only; bind that exchange to yours "
                    + "(an exchange-to-exchange binding), or publish to it");
        }
        if (subscription.arguments.containsKey("x-single-active-consumer")) {
            problems.add("sets x-single-active-consumer with partitions: every partition queue has it already (one "
                    + "instance at a time handles a partition); remove the argument");
        }
    }

    /**
     * Names the partitions would take from others: a partition queue {@code <queue>.<i>} another subscription consumes
     * (or uses as its dead-letter queue), an exchange named as a partitioned subscription that a {@code @Binding}
     * also binds.
     */
    static List<String> conflicts(List<SubscriptionSpec> subscriptions) {
        List<SubscriptionSpec> sorted = new ArrayList<>(subscriptions);
        sorted.sort(Comparator.comparing(subscription -> subscription.queue));
        Set<String> used = new TreeSet<>();
        Set<String> boundExchanges = new TreeSet<>();
        for (SubscriptionSpec subscription : sorted) {
            if (!subscription.partitioned()) {
                used.add(subscription.queue);
            }
            if (subscription.deadLetter != null) {
                used.add(subscription.deadLetter);
            }
            subscription.bindings.forEach(binding -> boundExchanges.add(binding.exchange));
        }
        List<String> conflicts = new ArrayList<>();
        for (SubscriptionSpec subscription : sorted) {
            Partitioning partitioning = subscription.partitioning;
            if (partitioning == null || partitioning.isPartition()) {
                continue;
            }
            for (int index = 0; index < partitioning.count; index++) {
                String name = subscription.stream() ? SuperStream.partition(subscription.queue, index)
                        : Partitioning.queueName(subscription.queue, index);
                if (used.contains(name)) {
                    conflicts.add("Queue '" + name + "' is both partition " + index + " of '" + subscription.queue
                            + "' and another subscription's queue: rename one");
                }
            }
            if (boundExchanges.contains(subscription.queue)) {
                conflicts.add("Exchange '" + subscription.queue + "' is both the " + (subscription.stream()
                        ? "super stream's exchange"
                        : "consistent-hash exchange") + " of the partitions of '"
                        + subscription.queue + "' and bound by a @Binding: rename one");
            }
        }
        return conflicts;
    }
}
