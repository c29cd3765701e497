package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.quarkiverse.rabbitmq.subscriber.Delay;

/**
 * The rules of where a retried message waits ({@code delay}, {@code waitingQueue}, {@code delays}): a strategy
 * without its infrastructure, settings it would ignore, and waiting queues that would clash with other queues. Apart
 * from {@link SubscriptionRules} because the waiting queues are one concern, judged both per subscription and across
 * them. Each text of {@link #check} completes {@code "@Subscriber method <method> "}, as {@link SubscriptionRules}'.
 */
final class DelayRules {

    private DelayRules() {
    }

    /**
     * The delay rules: a strategy without its infrastructure, or settings it would ignore. The waiting queue and the
     * delays are judged as written too, since the strategies without them leave them out.
     */
    static void check(SubscriptionSpec subscription, SubscriptionDeclaration declared, boolean delayedExchangeEnabled,
            List<String> problems) {
        Delay delay = subscription.delay;
        if (delay == Delay.PLUGIN && !delayedExchangeEnabled) {
            problems.add("sets delay = PLUGIN but the delayed-message exchange is not enabled: set "
                    + "quarkus.rabbitmq-subscriber.delayed-exchange.enabled=true on a broker with the "
                    + "rabbitmq_delayed_message_exchange plugin, or use delay = DLX_TTL (no plugin needed)");
        }
        // Only the strategies that wait in a queue have one, the default <queue>.retry if none is named.
        String waiting = subscription.waitingQueue;
        if (waiting == null && declared.waitingQueue != null && !declared.waitingQueue.isEmpty()) {
            problems.add("sets waitingQueue = '" + declared.waitingQueue + "' with delay = " + delay + ", which has "
                    + "no waiting queue: use delay = DLX_TTL or DLX_TTL_PER_DELAY, or remove waitingQueue");
        }
        checkDelays(delay, declared.delays, problems);
    }

    /** The delays as written: only {@code DLX_TTL_PER_DELAY} has them, and each must be a duration, once. */
    private static void checkDelays(Delay delay, List<String> texts, List<String> problems) {
        if (delay != Delay.DLX_TTL_PER_DELAY) {
            if (!texts.isEmpty()) {
                problems.add("lists delays " + texts + " with delay = " + delay + ": only DLX_TTL_PER_DELAY declares "
                        + "a waiting queue per delay; use it, or remove delays");
            }
            return;
        }
        if (texts.isEmpty()) {
            problems.add("sets delay = DLX_TTL_PER_DELAY without delays: list the delays its handler asks for, e.g. "
                    + "delays = {\"1s\", \"30s\"}, one waiting queue is declared for each");
        }
        List<Long> listed = new ArrayList<>();
        for (String text : texts) {
            long millis;
            try {
                millis = DelayLabel.parse(text);
            } catch (IllegalArgumentException e) {
                problems.add("lists delay " + e.getMessage());
                continue;
            }
            if (millis <= 0) {
                problems.add("lists delay '" + text + "': a delay must be longer than zero");
            } else if (listed.contains(millis)) {
                problems.add("lists the delay " + DelayLabel.of(millis) + " twice ('" + text + "')");
            } else {
                listed.add(millis);
            }
        }
    }

    /**
     * Waiting queues that a subscriber consumes, that two subscriptions wait in, or that are a dead-letter queue, in
     * the order of the subscriptions' queues.
     *
     * @return a list the caller may add to ({@link SubscriptionRules#conflicts(List, String)} appends the others)
     */
    static List<String> waitingQueueConflicts(List<SubscriptionSpec> subscriptions) {
        List<SubscriptionSpec> sorted = new ArrayList<>(subscriptions);
        sorted.sort(Comparator.comparing(subscription -> subscription.queue));
        Map<String, String> roles = new LinkedHashMap<>();
        for (SubscriptionSpec subscription : sorted) {
            roles.putIfAbsent(subscription.queue, "the work queue of a subscriber");
        }
        List<String> conflicts = new ArrayList<>();
        for (SubscriptionSpec subscription : sorted) {
            for (String waiting : subscription.waitingQueues()) {
                String role = "the waiting queue of '" + subscription.queue + "'";
                String earlier = roles.putIfAbsent(waiting, role);
                if (earlier != null) {
                    conflicts.add("Queue '" + waiting + "' is both " + earlier + " and " + role + ": a waiting queue "
                            + "dead-letters everything to one work queue and must have no consumer; name another "
                            + "waitingQueue");
                }
            }
        }
        for (SubscriptionSpec subscription : sorted) {
            String role = roles.get(subscription.deadLetter);
            if (role != null && role.startsWith("the waiting queue")) {
                conflicts.add("Queue '" + subscription.deadLetter + "' is both " + role + " and the dead-letter queue "
                        + "of '" + subscription.queue + "': dead letters would expire back into work; name another");
            }
        }
        return conflicts;
    }
}
