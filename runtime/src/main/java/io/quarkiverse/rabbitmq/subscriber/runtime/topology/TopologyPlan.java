package io.quarkiverse.rabbitmq.subscriber.runtime.topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.BindingSpec;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.Partitioning;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SuperStream;
import io.quarkus.runtime.annotations.RecordableConstructor;

/**
 * Everything the subscriptions need on the broker, as one value: the queues (work, dead-letter, waiting) with their
 * arguments, the exchanges (the subscriptions' {@code @Binding}s, the delayed-message exchange) and the bindings.
 * Computed at build time, and again at startup when names come from the configuration. Declaration (under
 * {@code declare-topology}), the passive startup check (without it) and the Dev UI all read this one value.
 */
public final class TopologyPlan {

    /** What a queue is for. */
    public enum Role {
        /** A queue a subscriber consumes. */
        WORK,
        /**
         * Where a subscription's spent messages go, and where a dead-letter queue's reader parks the letters it cannot
         * handle ({@code <queue>.parked}); declared only when absent, so an operator's own stays as it is.
         */
        DEAD_LETTER,
        /** Where delayed copies wait, dead-lettering back to their work queue when they expire. */
        WAITING
    }

    /** One queue: its name, role, the work queue it serves and the arguments it is declared with. */
    public static final class QueuePlan {
        public final String name;
        public final Role role;
        public final String owner;
        public final Map<String, Object> arguments;

        @RecordableConstructor
        public QueuePlan(String name, Role role, String owner, Map<String, Object> arguments) {
            this.name = name;
            this.role = role;
            this.owner = owner;
            this.arguments = arguments;
        }

        /** How the queue is named in messages: {@code 'refunds.retry' (waiting queue of 'refunds')}. */
        public String describe() {
            return "'" + name + "' (" + switch (role) {
                case WORK -> "consumed";
                case DEAD_LETTER -> name.equals(owner + ".parked") ? "letters the reader of '" + owner + "' parked"
                        : "dead letters of '" + owner + "'";
                case WAITING -> "waiting queue of '" + owner + "'";
            } + ")";
        }

        @Override
        public String toString() {
            return describe() + (arguments.isEmpty() ? "" : " " + arguments);
        }
    }

    /** An exchange the subscriptions publish through. */
    public static final class ExchangePlan {
        public final String name;
        public final String type;
        public final Map<String, Object> arguments;

        @RecordableConstructor
        public ExchangePlan(String name, String type, Map<String, Object> arguments) {
            this.name = name;
            this.type = type;
            this.arguments = arguments;
        }

        /** RabbitMQ's own ({@code amq.*}): it exists on every virtual host, and may only be checked. */
        public boolean builtIn() {
            return name.startsWith("amq.");
        }

        @Override
        public String toString() {
            return "exchange '" + name + "' (" + type + ")";
        }
    }

    /** A queue bound to an exchange under a routing key. */
    public static final class BindingPlan {
        public final String queue;
        public final String exchange;
        public final String routingKey;
        /** A headers binding's match ({@code x-match} and the headers); empty for the other types. */
        public final Map<String, Object> arguments;

        @RecordableConstructor
        public BindingPlan(String queue, String exchange, String routingKey, Map<String, Object> arguments) {
            this.queue = queue;
            this.exchange = exchange;
            this.routingKey = routingKey;
            this.arguments = arguments;
        }

        @Override
        public String toString() {
            return "binding of '" + queue + "' to '" + exchange + "' under '" + routingKey + "'"
                    + (arguments.isEmpty() ? "" : " " + arguments);
        }
    }

    /** The exchange type of RabbitMQ's delayed-message plugin. */
    public static final String DELAYED_EXCHANGE_TYPE = "x-delayed-message";

    public final List<QueuePlan> queues;
    public final List<ExchangePlan> exchanges;
    public final List<BindingPlan> bindings;

    @RecordableConstructor
    public TopologyPlan(List<QueuePlan> queues, List<ExchangePlan> exchanges, List<BindingPlan> bindings) {
        this.queues = List.copyOf(queues);
        this.exchanges = List.copyOf(exchanges);
        this.bindings = List.copyOf(bindings);
    }

    /**
     * The plan of these subscriptions, in the order of their queues' names (so a build is reproducible). A queue two
     * subscriptions share (one dead-letter queue for two) is planned once; names that clash fail the build
     * ({@code SubscriptionRules.conflicts}).
     */
    public static TopologyPlan of(List<SubscriptionSpec> subscriptions) {
        List<SubscriptionSpec> sorted = new ArrayList<>(
                io.quarkiverse.rabbitmq.subscriber.runtime.subscription.Partitions.split(subscriptions));
        sorted.sort(Comparator.comparing(subscription -> subscription.queue));
        Map<String, QueuePlan> queues = new LinkedHashMap<>();
        Map<String, ExchangePlan> exchanges = new LinkedHashMap<>();
        List<BindingPlan> bindings = new ArrayList<>();
        for (SubscriptionSpec subscription : sorted) {
            if (subscription.superStream()) {
                superStream(subscription, queues, exchanges, bindings);
            } else {
                queues.putIfAbsent(subscription.queue,
                        new QueuePlan(subscription.queue, Role.WORK, subscription.queue, subscription.queueArguments()));
            }
        }
        java.util.Set<String> deadLetterQueues = new java.util.HashSet<>();
        sorted.forEach(subscription -> deadLetterQueues.add(subscription.deadLetter));
        for (SubscriptionSpec subscription : sorted) {
            if (subscription.deadLetter != null) {
                queues.putIfAbsent(subscription.deadLetter,
                        new QueuePlan(subscription.deadLetter, Role.DEAD_LETTER, subscription.queue, Map.of()));
            }
            if (deadLetterQueues.contains(subscription.queue)) {
                // A dead-letter queue's reader parks there what it cannot handle, and reads on. Of its reader's queue
                // type: a quorum dead-letter queue's parking queue must be there while a node is down, as it is (the
                // cluster run could not resubscribe the reader while a classic one's home node was stopped).
                queues.putIfAbsent(subscription.parkingQueue(), new QueuePlan(subscription.parkingQueue(),
                        Role.DEAD_LETTER, subscription.queue,
                        subscription.quorum() ? Map.of("x-queue-type", "quorum") : Map.of()));
            }
            if (subscription.delay == Delay.DLX_TTL) {
                queues.putIfAbsent(subscription.waitingQueue, new QueuePlan(subscription.waitingQueue, Role.WAITING,
                        subscription.queue, waitingArguments(subscription, null)));
            }
            if (subscription.delay == Delay.DLX_TTL_PER_DELAY) {
                for (long delay : subscription.delays) {
                    String name = subscription.waitingQueueFor(delay);
                    queues.putIfAbsent(name, new QueuePlan(name, Role.WAITING, subscription.queue,
                            waitingArguments(subscription, delay)));
                }
            }
            if (subscription.delay == Delay.PLUGIN) {
                exchanges.putIfAbsent(subscription.delayedExchange, new ExchangePlan(subscription.delayedExchange,
                        DELAYED_EXCHANGE_TYPE, Map.of("x-delayed-type", "direct")));
                bindings.add(new BindingPlan(subscription.queue, subscription.delayedExchange, subscription.queue,
                        Map.of()));
            }
            Partitioning partitioning = subscription.partitioning;
            if (partitioning != null && partitioning.isPartition()) {
                // Each partition queue weighs the same: the plugin reads a binding's key as its weight.
                exchanges.putIfAbsent(partitioning.exchange, new ExchangePlan(partitioning.exchange,
                        Partitioning.EXCHANGE_TYPE, partitioning.exchangeArguments()));
                bindings.add(new BindingPlan(subscription.queue, partitioning.exchange, "1", Map.of()));
            }
            for (BindingSpec binding : subscription.bindings) {
                // Durable, no arguments: the type is all a subscription says of an exchange it binds to.
                exchanges.putIfAbsent(binding.exchange,
                        new ExchangePlan(binding.exchange, binding.type.wireName(), Map.of()));
                for (String key : binding.keys) {
                    bindings.add(new BindingPlan(subscription.queue, binding.exchange, key, binding.arguments));
                }
            }
        }
        return new TopologyPlan(new ArrayList<>(queues.values()), new ArrayList<>(exchanges.values()), bindings);
    }

    /**
     * A super stream, as RabbitMQ lays one out ({@link SuperStream}): its partition streams, its exchange, and each
     * partition's binding with its index as the key and its place in the order.
     */
    private static void superStream(SubscriptionSpec subscription, Map<String, QueuePlan> queues,
            Map<String, ExchangePlan> exchanges, List<BindingPlan> bindings) {
        exchanges.putIfAbsent(subscription.queue, new ExchangePlan(subscription.queue, SuperStream.EXCHANGE_TYPE,
                SuperStream.EXCHANGE_ARGUMENTS));
        for (int index = 0; index < subscription.partitioning.count; index++) {
            String partition = SuperStream.partition(subscription.queue, index);
            queues.putIfAbsent(partition, new QueuePlan(partition, Role.WORK, subscription.queue,
                    subscription.queueArguments()));
            bindings.add(new BindingPlan(partition, subscription.queue, SuperStream.bindingKey(index),
                    Map.of(SuperStream.PARTITION_ORDER, index)));
        }
    }

    /**
     * A waiting queue has no consumer: RabbitMQ dead-letters each message to the work queue through the default
     * exchange when it expires, by its own expiration ({@code DLX_TTL}) or the queue's TTL (one queue per delay).
     * <p>
     * A quorum work queue gets a quorum waiting queue that dead-letters at least once: a classic queue's dead-lettering
     * is a hop RabbitMQ makes at most once, and a copy that expires while the work queue has no leader (a node down, a
     * whole cluster restarting) is dropped. A quorum queue's at-least-once strategy keeps it until the work queue
     * confirms it; it needs {@code x-overflow=reject-publish}, and the waiting queue has no length limit, so that changes
     * nothing else. A classic work queue lives on one node anyway: its waiting queue stays classic.
     */
    private static Map<String, Object> waitingArguments(SubscriptionSpec subscription, Long ttl) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        if (subscription.quorum()) {
            arguments.put("x-queue-type", "quorum");
        }
        arguments.put("x-dead-letter-exchange", "");
        arguments.put("x-dead-letter-routing-key", subscription.queue);
        if (subscription.quorum()) {
            arguments.put("x-dead-letter-strategy", "at-least-once");
            arguments.put("x-overflow", "reject-publish");
        }
        if (ttl != null) {
            arguments.put("x-message-ttl", ttl);
        }
        return arguments;
    }

    /** The part of the plan one subscription needs: its work queue, its dead-letter and waiting queues, its exchange. */
    public TopologyPlan ownedBy(SubscriptionSpec subscription) {
        List<String> names = new ArrayList<>(subscription.waitingQueues());
        names.add(subscription.queue);
        if (subscription.deadLetter != null) {
            names.add(subscription.deadLetter);
        }
        if (subscription.readsDeadLetters) {
            names.add(subscription.parkingQueue());
        }
        List<QueuePlan> own = queues.stream().filter(queue -> names.contains(queue.name)
                && (queue.role != Role.WORK || queue.name.equals(subscription.queue))).toList();
        List<BindingPlan> ownBindings = bindings.stream().filter(binding -> binding.queue.equals(subscription.queue))
                .toList();
        List<ExchangePlan> ownExchanges = exchanges.stream()
                .filter(exchange -> ownBindings.stream().anyMatch(binding -> binding.exchange.equals(exchange.name)))
                .toList();
        return new TopologyPlan(own, ownExchanges, ownBindings);
    }

    @Override
    public String toString() {
        List<Object> all = new ArrayList<>(queues);
        all.addAll(exchanges);
        all.addAll(bindings);
        return all.toString();
    }
}
