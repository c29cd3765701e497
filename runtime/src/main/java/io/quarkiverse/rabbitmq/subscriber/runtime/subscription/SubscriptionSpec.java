package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkus.runtime.annotations.RecordableConstructor;

/**
 * What one subscription consumes and how its deliveries are retried, capped and dead-lettered: the
 * {@code @Subscriber} annotation with the {@code quarkus.rabbitmq-subscriber.queues."<queue>".*} overrides applied,
 * validated and fixed at build time. Immutable.
 */
public final class SubscriptionSpec {

    public final String queue;
    public final QueueType type;
    /** Deliveries of one message, the first included; 0: no cap. */
    public final int maxAttempts;
    /** The dead-letter queue, or null. */
    public final String deadLetter;
    /** Quorum only: the queue's own {@code x-delivery-limit} when no cap is mounted; -1: none. */
    public final int deliveryLimit;
    public final RetryPublish retryPublish;
    /** 0: the configured default. */
    public final int prefetch;
    /** 0: up to the prefetch. */
    public final int concurrency;
    /** Where a {@code retryAfter} copy waits. */
    public final Delay delay;
    /**
     * {@code DLX_TTL}: the waiting queue; {@code DLX_TTL_PER_DELAY}: the prefix of the waiting queues' names; null for
     * the strategies without one.
     */
    public final String waitingQueue;
    /** {@code DLX_TTL_PER_DELAY}: the listed delays in milliseconds, shortest first; empty otherwise. */
    public final List<Long> delays;
    /** {@code PLUGIN}: the delayed-message exchange the copies go through; null otherwise. */
    public final String delayedExchange;
    /**
     * Its queue is another subscription's dead-letter queue: a message it cannot handle is never rejected away, it is
     * parked in {@link #parkingQueue()} and the subscriber goes on (see {@code SettlementPlan}).
     */
    public final boolean readsDeadLetters;
    /** The exchanges its queue is bound to, in the order declared. */
    public final List<BindingSpec> bindings;
    /** The queue arguments the user gave (annotation, then configuration), typed; see {@link #queueArguments()}. */
    public final Map<String, Object> arguments;
    /**
     * The exception types (class names, sorted) a handler failure of which, or of a subtype, is dead-lettered at once
     * instead of retried ({@code @Subscriber(deadLetterOn)}).
     */
    public final List<String> deadLetterOn;
    /** The kill switch: after this many failures in a row the subscriber pauses; 0: none. */
    public final int killSwitchFailures;
    /** How long the kill switch pauses it, in milliseconds. */
    public final long killSwitchPauseMillis;
    /** The back-off after a failure: the first wait in milliseconds; 0: failures are retried at once. */
    public final long backoffInitialMillis;
    /** How much longer each wait of the back-off is than the one before. */
    public final double backoffMultiplier;
    /** The longest wait of the back-off in milliseconds; 0: no bound. */
    public final long backoffMaxMillis;
    /** The server's delayed retry (quorum, RabbitMQ 4.3+): the wait after the first failure in milliseconds; 0: none. */
    public final long retryDelayMinMillis;
    /** The longest wait of the server's delayed retry in milliseconds; 0: no bound. */
    public final long retryDelayMaxMillis;
    /** Sent with {@code basic.consume} ({@code x-priority}, {@code x-consumer-timeout}), typed as queue arguments are. */
    public final Map<String, Object> consumerArguments;
    /**
     * The handler runs in a database transaction that first records the message's key in the inbox table: a key
     * already there is a duplicate, acked without calling the handler; the transaction commits only on an ack.
     */
    public final boolean inbox;
    /** Its ordered partitions ({@code @Subscriber(partitions)}), or null. */
    public final Partitioning partitioning;
    /** The broker whose queue it is ({@code @Subscriber(broker)}): a configured name, or {@code Broker.DEFAULT}. */
    public final String broker;

    /**
     * The values as they are, for the recorder, which passes back the fields of a built spec:
     * {@link SubscriptionDeclaration#build()}
     * applies the defaults.
     */
    @RecordableConstructor
    public SubscriptionSpec(String queue, QueueType type, int maxAttempts, String deadLetter, int deliveryLimit,
            RetryPublish retryPublish, int prefetch, int concurrency, Delay delay, String waitingQueue,
            List<Long> delays, String delayedExchange, boolean readsDeadLetters, List<BindingSpec> bindings,
            Map<String, Object> arguments, List<String> deadLetterOn, int killSwitchFailures,
            long killSwitchPauseMillis, long backoffInitialMillis, double backoffMultiplier, long backoffMaxMillis,
            long retryDelayMinMillis, long retryDelayMaxMillis, Map<String, Object> consumerArguments, boolean inbox,
            Partitioning partitioning, String broker) {
        this.queue = Objects.requireNonNull(queue);
        this.broker = Objects.requireNonNull(broker);
        this.type = type;
        this.maxAttempts = maxAttempts;
        this.deadLetter = deadLetter;
        this.deliveryLimit = deliveryLimit;
        this.retryPublish = retryPublish;
        this.prefetch = prefetch;
        this.concurrency = concurrency;
        this.delay = delay;
        this.waitingQueue = waitingQueue;
        this.delays = List.copyOf(delays);
        this.delayedExchange = delayedExchange;
        this.readsDeadLetters = readsDeadLetters;
        this.bindings = List.copyOf(bindings);
        this.arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
        this.deadLetterOn = List.copyOf(deadLetterOn);
        this.killSwitchFailures = killSwitchFailures;
        this.killSwitchPauseMillis = killSwitchPauseMillis;
        this.backoffInitialMillis = backoffInitialMillis;
        this.backoffMultiplier = backoffMultiplier;
        this.backoffMaxMillis = backoffMaxMillis;
        this.retryDelayMinMillis = retryDelayMinMillis;
        this.retryDelayMaxMillis = retryDelayMaxMillis;
        this.consumerArguments = Collections.unmodifiableMap(new LinkedHashMap<>(consumerArguments));
        this.inbox = inbox;
        this.partitioning = partitioning;
    }

    /** How long a failed delivery waits before the next attempt. */
    public FailureBackoff backoff() {
        return new FailureBackoff(backoffInitialMillis, backoffMultiplier, backoffMaxMillis);
    }

    /** {@code DLX_TTL_PER_DELAY}: the waiting queue of one listed delay, {@code <waitingQueue>.<delay>}. */
    public String waitingQueueFor(long delayMillis) {
        return waitingQueue + "." + DelayLabel.of(delayMillis);
    }

    /**
     * A dead-letter queue's reader: where the letters it cannot handle go, {@code <queue>.parked}, so that one bad
     * letter never stops it from reading those behind.
     */
    public String parkingQueue() {
        return queue + ".parked";
    }

    /** The waiting queues this subscription's delay strategy uses, in the order of their delays. */
    public List<String> waitingQueues() {
        if (delay == Delay.DLX_TTL) {
            return List.of(waitingQueue);
        }
        if (delay == Delay.DLX_TTL_PER_DELAY) {
            return delays.stream().map(this::waitingQueueFor).toList();
        }
        return List.of();
    }

    /** A subscription to declare value by value; {@link SubscriptionDeclaration#build()} applies the defaults. */
    public static SubscriptionDeclaration builder(String queue) {
        return new SubscriptionDeclaration(queue);
    }

    /**
     * These subscriptions, each told whether its queue is another one's dead-letter queue (whose subscriber must never
     * reject a message away), in their order.
     */
    public static List<SubscriptionSpec> markingDeadLetterReaders(List<SubscriptionSpec> subscriptions) {
        // A queue is another's dead-letter queue only on the same broker: a name on another broker is another queue.
        java.util.Set<List<String>> deadLetterQueues = new java.util.HashSet<>();
        subscriptions.forEach(subscription -> deadLetterQueues.add(List.of(subscription.broker,
                String.valueOf(subscription.deadLetter))));
        return subscriptions.stream().map(subscription -> subscription.readingDeadLetters(
                deadLetterQueues.contains(List.of(subscription.broker, subscription.queue)))).toList();
    }

    private SubscriptionSpec readingDeadLetters(boolean reads) {
        return reads == readsDeadLetters ? this
                : new SubscriptionSpec(queue, type, maxAttempts, deadLetter, deliveryLimit, retryPublish, prefetch,
                        concurrency, delay, waitingQueue, delays, delayedExchange, reads, bindings, arguments,
                        deadLetterOn, killSwitchFailures, killSwitchPauseMillis, backoffInitialMillis,
                        backoffMultiplier, backoffMaxMillis, retryDelayMinMillis, retryDelayMaxMillis, consumerArguments,
                        inbox, partitioning, broker);
    }

    /**
     * This subscription with its names passed through {@code names}: the queue, dead-letter queue, waiting queue and
     * the bindings' exchanges and keys, which may be {@code ${property}} expressions resolved at startup.
     */
    public SubscriptionSpec withNames(UnaryOperator<String> names) {
        return new SubscriptionSpec(names.apply(queue), type, maxAttempts,
                deadLetter == null ? null : names.apply(deadLetter), deliveryLimit, retryPublish, prefetch, concurrency,
                delay, waitingQueue == null ? null : names.apply(waitingQueue), delays, delayedExchange,
                readsDeadLetters, bindings.stream().map(binding -> binding.withNames(names)).toList(), arguments,
                deadLetterOn, killSwitchFailures, killSwitchPauseMillis, backoffInitialMillis, backoffMultiplier,
                backoffMaxMillis, retryDelayMinMillis, retryDelayMaxMillis, consumerArguments,
                inbox, partitioning, broker);
    }

    /**
     * Partition {@code index} of this partitioned subscription: its queue {@code <queue>.<index>}, handled one message
     * at a time (concurrency 1), everything else as declared.
     */
    SubscriptionSpec partition(int index) {
        return new SubscriptionSpec(Partitioning.queueName(queue, index), type, maxAttempts, deadLetter, deliveryLimit,
                retryPublish, prefetch, 1, delay, waitingQueue, delays, delayedExchange, readsDeadLetters, bindings,
                arguments, deadLetterOn, killSwitchFailures, killSwitchPauseMillis, backoffInitialMillis,
                backoffMultiplier, backoffMaxMillis, retryDelayMinMillis, retryDelayMaxMillis, consumerArguments, inbox,
                partitioning.partition(index, queue), broker);
    }

    /** Whether it was declared with partitions ({@code @Subscriber(partitions)}), split or not. */
    public boolean partitioned() {
        return partitioning != null;
    }

    /**
     * Whether a retry, a failure and a {@code retryAfter} wait in the service with the delivery held, and are handled
     * again in place: a partition's, whose next message must not overtake it (a copy, or a requeue while the consumer
     * holds later messages, would let it).
     */
    public boolean retriesInPlace() {
        return partitioned() || stream();
    }

    /** Whether it reads a stream ({@code QueueType.STREAM}): a log read from an offset, nothing ever requeued to it. */
    public boolean stream() {
        return type == QueueType.STREAM;
    }

    /**
     * Whether it reads a super stream ({@code QueueType.STREAM} with partitions): one subscription reading every
     * partition stream, of which the broker makes it the active consumer of some ({@link SuperStream}).
     */
    public boolean superStream() {
        return stream() && partitioned();
    }

    /** Every name of this subscription that may come from the configuration, as written. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        names.add(queue);
        if (deadLetter != null) {
            names.add(deadLetter);
        }
        if (waitingQueue != null) {
            names.add(waitingQueue);
        }
        for (BindingSpec binding : bindings) {
            names.add(binding.exchange);
            names.addAll(binding.keys);
        }
        return names;
    }

    public boolean quorum() {
        return type == QueueType.QUORUM;
    }

    /**
     * Whether the runtime counts deliveries itself, and publishes the dead letter: a classic queue under a cap, and a
     * stream (a log has no dead-letter route of its own).
     */
    public boolean runtimeCounts() {
        return stream() || !quorum() && maxAttempts > 0;
    }

    /**
     * Whether the settler publishes copies or dead letters itself: a classic queue under a cap, a quorum cap (a delayed
     * copy's loop is ended by the runtime), a delay that waits on the broker, or a dead-letter queue's reader (it parks
     * the letters it cannot handle).
     */
    public boolean publishesCopies() {
        return maxAttempts > 0 || delay != Delay.IN_SERVICE || readsDeadLetters || stream() && deadLetter != null;
    }

    /**
     * Whether the server delays this subscription's retries ({@code @RetryDelay}, a quorum queue on RabbitMQ 4.3+): a
     * retry, a failure and a {@code retryAfter} are all a {@code basic.reject} with requeue, and the server waits.
     */
    public boolean serverDelaysRetries() {
        return quorum() && retryDelayMinMillis > 0;
    }

    /** Whether the server counts deliveries and stops at a limit: a quorum queue with a cap or its own limit. */
    public boolean serverCounts() {
        return quorum() && (maxAttempts > 0 || deliveryLimit >= 0);
    }

    /**
     * The arguments the work queue is declared with: the user's, then the ones this subscription's type and cap set
     * (the rules refuse a user argument that one of those would replace).
     */
    public Map<String, Object> queueArguments() {
        Map<String, Object> arguments = new LinkedHashMap<>(this.arguments);
        if (partitioned() && !stream()) {
            // One consumer at a time gets a partition's messages, whichever instances consume it.
            arguments.put("x-single-active-consumer", true);
        }
        if (stream()) {
            arguments.put("x-queue-type", "stream");
        }
        if (quorum()) {
            arguments.put("x-queue-type", "quorum");
            if (maxAttempts > 0) {
                // RabbitMQ counts returns: a limit of M-1 gives exactly M deliveries.
                arguments.put("x-delivery-limit", maxAttempts - 1);
                arguments.put("x-dead-letter-exchange", "");
                arguments.put("x-dead-letter-routing-key", deadLetter);
                // RabbitMQ dead-letters from a quorum queue at most once by default: a dead letter that meets its
                // dead-letter queue without a leader (a node stopping) is dropped; the cluster run lost 4 of 2,000 so.
                // At least once keeps it in this queue until the dead-letter queue confirmed it; RabbitMQ applies that
                // strategy only with reject-publish overflow.
                arguments.put("x-dead-letter-strategy", "at-least-once");
                arguments.put("x-overflow", "reject-publish");
            } else if (deliveryLimit >= 0) {
                arguments.put("x-delivery-limit", deliveryLimit);
            }
            if (serverDelaysRetries()) {
                // Only failures (basic.reject) are held back; a basic.nack (which the runtime never sends) is not.
                arguments.put("x-delayed-retry-type", "failed");
                arguments.put("x-delayed-retry-min", retryDelayMinMillis);
                if (retryDelayMaxMillis > 0) {
                    arguments.put("x-delayed-retry-max", retryDelayMaxMillis);
                }
            }
        }
        return arguments;
    }

    @Override
    public String toString() {
        return "queue '" + queue + "' (" + type + (maxAttempts > 0 ? ", maxAttempts " + maxAttempts : "")
                + (deadLetter != null ? ", deadLetter '" + deadLetter + "'" : "")
                + (serverDelaysRetries() ? ", retryDelay " + retryDelayMinMillis + "ms" : ", delay " + delay)
                + (bindings.isEmpty() ? "" : ", bound to " + bindings)
                + (partitioning == null ? "" : ", " + partitioning) + ")";
    }

}
