package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import io.quarkiverse.rabbitmq.subscriber.QueueType;

/**
 * The rules a subscription's values must keep, each one place: a declaration that could never work, or a setting it
 * would ignore, fails the build. They judge the values in effect, the overrides applied; the rules about the Java
 * method (its parameters, return type, modifiers and execution model) are the deployment module's. Pure: they read
 * what they are given and nothing else.
 */
public final class SubscriptionRules {

    /** RabbitMQ refuses to declare a queue or an exchange whose name starts so. */
    private static final String RESERVED_PREFIX = "amq.";

    private SubscriptionRules() {
    }

    /**
     * What makes one subscription unusable, in the order the build reports it. Each text completes
     * {@code "@Subscriber method <method> "}.
     *
     * @param declared the annotation's values with the overrides applied
     * @param declareTopology {@code quarkus.rabbitmq-subscriber.declare-topology}
     * @param delayedExchangeEnabled {@code quarkus.rabbitmq-subscriber.delayed-exchange.enabled}
     */
    public static List<String> problems(SubscriptionDeclaration declared, boolean declareTopology,
            boolean delayedExchangeEnabled) {
        SubscriptionSpec subscription = declared.build();
        List<String> problems = new ArrayList<>(nameProblems(subscription));
        checkQueue(subscription, problems);
        checkCap(subscription, declared.retryPublish != null, declareTopology, problems);
        DelayRules.check(subscription, declared, delayedExchangeEnabled, problems);
        checkBackoff(subscription, declared, problems);
        RetryDelayRules.check(subscription, declared, problems);
        TopologyRules.checkBindings(declared.bindings, problems);
        TopologyRules.checkArguments(subscription, declared.arguments, problems);
        ConsumerArgumentRules.check(subscription, declared.consumerArguments, problems);
        PartitionRules.check(subscription, declared, problems);
        StreamRules.check(subscription, declared, problems);
        return problems;
    }

    /**
     * The rules that compare a subscription's names, or judge one: run at build time on the names as written, and
     * again at startup once names from the configuration ({@code ${property}}) are resolved, with the same texts.
     */
    public static List<String> nameProblems(SubscriptionSpec subscription) {
        List<String> problems = new ArrayList<>();
        String queue = subscription.queue;
        if (queue.isBlank()) {
            problems.add("names no queue: @Subscriber(\"<queue>\") needs the queue to consume");
        }
        if (reserved(queue)) {
            problems.add("consumes queue '" + queue + "': RabbitMQ reserves the 'amq.' prefix and refuses to "
                    + "declare it");
        }
        String deadLetter = subscription.deadLetter;
        if (deadLetter != null && deadLetter.equals(queue)) {
            problems.add("sets deadLetter = '" + deadLetter + "', its own queue: dead letters would be consumed again "
                    + "as work; name another queue");
        }
        if (deadLetter != null && reserved(deadLetter)) {
            problems.add("sets deadLetter = '" + deadLetter + "': RabbitMQ reserves the 'amq.' prefix");
        }
        String waiting = subscription.waitingQueue;
        if (waiting != null && waiting.equals(queue)) {
            problems.add("sets waitingQueue = '" + waiting + "', its own queue: copies would be consumed at once "
                    + "instead of waiting; name another queue");
        }
        if (waiting != null && waiting.equals(deadLetter)) {
            problems.add("sets waitingQueue = '" + waiting + "', its dead-letter queue: dead letters would expire "
                    + "back into work; name another queue");
        }
        if (waiting != null && reserved(waiting)) {
            problems.add("sets waitingQueue = '" + waiting + "': RabbitMQ reserves the 'amq.' prefix");
        }
        TopologyRules.checkExchangeNames(subscription, problems);
        return problems;
    }

    /**
     * Two subscribers on one queue, by queue in name order: RabbitMQ would split the queue's messages between them.
     *
     * @param methodsByQueue each queue's subscriber methods, as described in messages
     */
    public static List<String> sharedQueues(Map<String, List<String>> methodsByQueue) {
        List<String> problems = new ArrayList<>();
        new java.util.TreeMap<>(methodsByQueue).forEach((queue, methods) -> {
            if (methods.size() > 1) {
                problems.add("Queue '" + queue + "' has " + methods.size() + " @Subscriber methods ("
                        + String.join(", ", methods) + "): a queue has one subscriber; raise its prefetch for more "
                        + "parallel work. A queue's name is one subscription's in the whole application, whatever "
                        + "broker it is on (metrics, Subscriptions.pause and the Dev UI name it)");
            }
        });
        return problems;
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    /** The queue's name and the limits it is consumed under. */
    private static void checkQueue(SubscriptionSpec subscription, List<String> problems) {
        if (subscription.killSwitchFailures < 0 || subscription.killSwitchPauseMillis <= 0) {
            problems.add("sets a kill switch of " + subscription.killSwitchFailures + " failures and a pause of "
                    + subscription.killSwitchPauseMillis + " ms: use 1 failure or more and a pause longer than 0");
        }
        if (subscription.type == QueueType.CLASSIC && subscription.deliveryLimit >= 0) {
            problems.add("sets deliveryLimit on a classic queue: only quorum queues count deliveries "
                    + "(use type = QueueType.QUORUM)");
        }
        if (subscription.deliveryLimit < -1) {
            problems.add("sets deliveryLimit = " + subscription.deliveryLimit + ": it must be 0 or more");
        }
        if (subscription.prefetch < 0) {
            problems.add("sets prefetch = " + subscription.prefetch + ": it must be 0 (the configured default) or "
                    + "more");
        }
    }

    /**
     * The cap and dead-letter rules: a declaration that could never cap or dead-letter anything.
     *
     * @param retryPublishNamed whether the annotation or an override names a retry publish policy (a quorum queue has
     *        none to choose, not even the default)
     */
    private static void checkCap(SubscriptionSpec subscription, boolean retryPublishNamed, boolean declareTopology,
            List<String> problems) {
        String queue = subscription.queue;
        int maxAttempts = subscription.maxAttempts;
        String deadLetter = subscription.deadLetter;
        if (maxAttempts < 0) {
            problems.add("sets maxAttempts = " + maxAttempts + ": it must be 0 (no cap) or more");
        }
        if (subscription.concurrency < 0) {
            problems.add("sets concurrency = " + subscription.concurrency + ": it must be 0 (up to the prefetch) or "
                    + "more");
        }
        if (!subscription.quorum() && !subscription.deadLetterOn.isEmpty() && deadLetter == null) {
            problems.add("sets deadLetterOn " + subscription.deadLetterOn.stream().map(SubscriptionRules::simpleName)
                    .toList() + " on classic queue '" + queue + "' without deadLetter: there is no dead-letter queue "
                    + "to send such failures to. Name one (deadLetter, with maxAttempts), or remove deadLetterOn");
        }
        if (!subscription.quorum()) {
            if (deadLetter != null && maxAttempts <= 0) {
                problems.add("sets deadLetter on classic queue '" + queue + "' without maxAttempts: the route would "
                        + "never be used. Set maxAttempts, or give the queue its own dead-letter exchange to keep "
                        + "dropped messages");
            }
            return;
        }
        if (maxAttempts > 0 && deadLetter == null) {
            problems.add("sets maxAttempts on quorum queue '" + queue + "' without deadLetter: half a declaration. "
                    + "The server would discard a message at the cap; name the dead-letter queue (deadLetter), "
                    + "or use deliveryLimit alone if discarding is what you want");
        }
        if (deadLetter != null && maxAttempts <= 0) {
            problems.add("sets deadLetter on quorum queue '" + queue + "' without maxAttempts: half a declaration. "
                    + "The route would only ever see dropped messages; set maxAttempts too");
        }
        if (maxAttempts > 0 && subscription.deliveryLimit >= 0) {
            problems.add("sets both maxAttempts and deliveryLimit on quorum queue '" + queue + "': maxAttempts "
                    + "already sets x-delivery-limit (maxAttempts - 1); remove deliveryLimit");
        }
        if (retryPublishNamed) {
            problems.add("sets retryPublish on quorum queue '" + queue + "': the server counts and dead-letters "
                    + "there, so there is no copy to publish; remove it");
        }
        if ((maxAttempts > 0 || subscription.deliveryLimit >= 0) && !declareTopology) {
            problems.add("caps quorum queue '" + queue + "' (" + (maxAttempts > 0 ? "maxAttempts" : "deliveryLimit")
                    + ") while quarkus.rabbitmq-subscriber.declare-topology is false: the cap would apply nowhere "
                    + "(a queue declared elsewhere keeps its owner's arguments). Set the limit and route on the "
                    + "queue itself (its declaration or a policy) and remove them here, or turn declaration on");
        }
    }

    /**
     * The back-off as written: durations longer than zero, a multiplier of 1 or more, a bound no shorter than the first
     * wait, and a cap, without which a failing message would wait and come back for ever.
     */
    private static void checkBackoff(SubscriptionSpec subscription, SubscriptionDeclaration declared,
            List<String> problems) {
        if (WaitBounds.judge("Backoff", "initial", declared.backoffInitial, declared.backoffMax, problems) == null) {
            return;
        }
        if (!(declared.backoffMultiplier >= 1) || Double.isInfinite(declared.backoffMultiplier)) {
            problems.add("sets @Backoff(multiplier = " + declared.backoffMultiplier + "): it must be 1 (the same wait "
                    + "each time) or more");
        }
        if (subscription.maxAttempts <= 0) {
            problems.add("sets a back-off without maxAttempts: a message that always fails would wait and come back for "
                    + "ever; set maxAttempts (and deadLetter) so the cap ends it");
        }
    }

    /**
     * Overrides ({@code quarkus.rabbitmq-subscriber.queues."<queue>".*}) for a queue no subscription consumes: a typo
     * or a leftover, which would change nothing. In the order of the queues' names.
     */
    public static List<String> unusedOverrides(Collection<String> overriddenQueues,
            List<SubscriptionSpec> subscriptions) {
        TreeSet<String> consumed = new TreeSet<>();
        subscriptions.forEach(subscription -> consumed.add(subscription.queue));
        return overriddenQueues.stream().filter(queue -> !consumed.contains(queue)).sorted()
                .map(queue -> "quarkus.rabbitmq-subscriber.queues.\"" + queue + "\".* overrides queue '" + queue
                        + "', which no @Subscriber method consumes (they consume " + List.copyOf(consumed)
                        + "): fix the queue name or remove the override")
                .toList();
    }

    /**
     * Names that the subscriptions would use in roles that break each other: a waiting queue that a subscriber
     * consumes, that two subscriptions wait in, or that is a dead-letter queue. (A dead-letter queue that another
     * subscriber consumes is the usual chain, and fine.) In the order of the subscriptions' queues.
     */
    public static List<String> conflicts(List<SubscriptionSpec> subscriptions) {
        return conflicts(subscriptions, null);
    }

    /**
     * {@link #conflicts(List)}, and exchanges bound with two types or named as the delayed-message exchange.
     *
     * @param delayedExchange the delayed-message exchange where it is enabled, or null
     */
    public static List<String> conflicts(List<SubscriptionSpec> subscriptions, String delayedExchange) {
        List<String> conflicts = DelayRules.waitingQueueConflicts(subscriptions);
        conflicts.addAll(TopologyRules.exchangeConflicts(subscriptions, delayedExchange));
        conflicts.addAll(PartitionRules.conflicts(subscriptions));
        return conflicts;
    }

    /**
     * The delayed-message exchange the {@code PLUGIN} subscriptions publish through, where it is enabled: a name
     * RabbitMQ can declare.
     */
    public static List<String> delayedExchangeProblems(boolean enabled, String name) {
        if (enabled && (name.isBlank() || reserved(name))) {
            return List.of("quarkus.rabbitmq-subscriber.delayed-exchange.name='" + name + "' cannot be declared: "
                    + "name an exchange outside RabbitMQ's reserved 'amq.' prefix");
        }
        return List.of();
    }

    static boolean reserved(String name) {
        return name.startsWith(RESERVED_PREFIX);
    }
}
