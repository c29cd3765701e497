package io.quarkiverse.rabbitmq.subscriber.deployment;

import java.util.TreeMap;

import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberBuildTimeConfig.QueueOverrides;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionDeclaration;

/**
 * The per-queue overrides ({@code quarkus.rabbitmq-subscriber.queues."<queue>".*}) over what the queue's
 * {@code @Subscriber} declares: each one set wins. Applied before the rules, so an override is checked like the
 * annotation.
 */
final class SubscriptionOverrides {

    private SubscriptionOverrides() {
    }

    static void applyTo(SubscriptionDeclaration declared, QueueOverrides overrides) {
        overrides.maxAttempts().ifPresent(declared::maxAttempts);
        overrides.deadLetter().ifPresent(declared::deadLetter);
        overrides.retryPublish().ifPresent(declared::retryPublish);
        overrides.prefetch().ifPresent(declared::prefetch);
        overrides.concurrency().ifPresent(declared::concurrency);
        overrides.delay().ifPresent(declared::delay);
        overrides.waitingQueue().ifPresent(declared::waitingQueue);
        overrides.delays().ifPresent(declared::delays);
        overrides.killSwitch().failures().ifPresent(failures -> declared.killSwitch(failures,
                overrides.killSwitch().pause()));
        overrides.backoff().initial().ifPresent(declared::backoffInitial);
        overrides.backoff().multiplier().ifPresent(declared::backoffMultiplier);
        overrides.backoff().max().ifPresent(declared::backoffMax);
        overrides.retryDelay().min().ifPresent(declared::retryDelayMin);
        overrides.retryDelay().max().ifPresent(declared::retryDelayMax);
        overrides.inbox().ifPresent(declared::inbox);
        if (overrides.partitions().isPresent() || overrides.partitionKey().isPresent()) {
            declared.partitions(overrides.partitions().orElse(declared.partitions()),
                    overrides.partitionKey().orElse(declared.partitionKey()));
        }
        // After the annotation's, so one of the same name replaces it; by name, so a build is reproducible.
        declared.arguments(new TreeMap<>(overrides.arguments()).entrySet().stream()
                .map(argument -> argument.getKey() + "=" + argument.getValue()).toList());
        declared.consumerArguments(new TreeMap<>(overrides.consumerArguments()).entrySet().stream()
                .map(argument -> argument.getKey() + "=" + argument.getValue()).toList());
    }
}
