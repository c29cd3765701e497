package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.Connections;

/**
 * {@link DeadLetters} on the publisher's connection: a replay publishes like the publisher does, and RabbitMQ blocking
 * that connection while it is low on memory must not stop the subscribers from acking.
 */
@Singleton
public class BrokerDeadLetters implements DeadLetters {

    @Inject
    Connections connections;

    @Inject
    SubscriberConfig config;

    /** The subscribers, whose work queues are the only places a replay writes to. */
    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.FoundSubscribers subscriptions;

    @Override
    public List<DeadLetter> peek(String deadLetterQueue, int max) {
        return DeadLetterPeek.peek(connections.publishingConnection(), deadLetterQueue, max,
                config.retryCountHeader(), queue -> subscriptions.definitions().stream()
                        .filter(definition -> definition.subscription.queue.equals(queue))
                        .mapToInt(definition -> definition.subscription.maxAttempts).findFirst().orElse(0));
    }

    @Override
    public int replay(String deadLetterQueue, int max) {
        return new DeadLetterReplay(connections.publishingConnection(), config.retryCountHeader(),
                config.publisher().confirmTimeout(),
                queue -> ReplayTargets.of(subscriptions.definitions(), queue)).replay(deadLetterQueue, max);
    }
}
