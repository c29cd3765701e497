package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;

/**
 * {@link DeadLetters} on the publisher's connection of the queue's broker: a replay publishes like the publisher does,
 * and RabbitMQ blocking that connection while it is low on memory must not stop the subscribers from acking.
 */
@Singleton
public class BrokerDeadLetters implements DeadLetters {

    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions sessions;

    @Inject
    SubscriberConfig config;

    /** A binary dead letter's preview, as its subscription's codec reads it. */
    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.codec.Codecs codecs;

    /** The subscribers, whose work queues are the only places a replay writes to. */
    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.FoundSubscribers subscriptions;

    @Override
    public List<DeadLetter> peek(String deadLetterQueue, int max) {
        return DeadLetterPeek.peek(connectionFor(deadLetterQueue), deadLetterQueue, max,
                config.retryCountHeader(), queue -> subscriptions.definitions().stream()
                        .filter(definition -> definition.subscription.queue.equals(queue))
                        .mapToInt(definition -> definition.subscription.maxAttempts).findFirst().orElse(0),
                (sourceQueue, properties, body) -> subscriptions.definitions().stream()
                        .filter(definition -> definition.subscription.queue.equals(sourceQueue)).findFirst()
                        .map(definition -> codecs.readable(definition, body, properties)).orElse(null));
    }

    @Override
    public int replay(String deadLetterQueue, int max) {
        return new DeadLetterReplay(connectionFor(deadLetterQueue), config.retryCountHeader(),
                config.publisher().confirmTimeout(),
                queue -> ReplayTargets.of(subscriptions.definitions(), queue)).replay(deadLetterQueue, max);
    }

    /**
     * The publishing connection of the broker the queue is on: a subscription's dead-letter queue (or its parking queue,
     * or the work queue itself) is on that subscription's broker; any other queue on the default broker.
     */
    private io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection connectionFor(String deadLetterQueue) {
        String broker = subscriptions.brokerOf(deadLetterQueue);
        return sessions.of(broker).publishingConnection();
    }
}
