package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;

/**
 * The queues a replay may move the letters of one dead-letter queue back to: the work queues of this application's
 * subscribers that dead-letter into it, or, for a dead-letter queue none of them names (an operator's dead-letter
 * exchange), any of their work queues. A dead letter says itself where it came from, in headers a publisher can write
 * ({@code x-death}, {@code x-first-death-queue}, a forged {@code x-original-queue}); a replay runs with the application's
 * permissions, so it must never write where a letter asks unless the application consumes from there.
 */
record ReplayTargets(Set<String> queues) {

    static ReplayTargets of(List<SubscriberDefinition> definitions, String deadLetterQueue) {
        Set<String> feeding = new TreeSet<>();
        Set<String> all = new TreeSet<>();
        for (SubscriberDefinition definition : definitions) {
            all.add(definition.subscription.queue);
            if (deadLetterQueue.equals(definition.subscription.deadLetter)) {
                feeding.add(definition.subscription.queue);
            }
        }
        return new ReplayTargets(feeding.isEmpty() ? all : feeding);
    }

    boolean allows(String queue) {
        return queues.contains(queue);
    }

    @Override
    public String toString() {
        return queues.isEmpty() ? "none" : String.join(", ", new TreeSet<>(queues));
    }
}
