package io.quarkiverse.rabbitmq.subscriber.runtime.delay;

import java.time.Duration;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.CopyDelay;

/**
 * {@code DLX_TTL}: the copy goes to the waiting queue with a per-message expiration of the delay. The waiting queue
 * has no consumer and dead-letters an expired message to the work queue through the default exchange. RabbitMQ expires
 * messages from the queue's head only, so a copy waits at least until every copy ahead of it has expired.
 */
final class WaitingQueueDelay implements CopyDelay {

    private final String waitingQueue;

    WaitingQueueDelay(String waitingQueue) {
        this.waitingQueue = waitingQueue;
    }

    @Override
    public Placement place(AMQP.BasicProperties copy, Duration delay) {
        return new Publish("", waitingQueue, true,
                copy.builder().expiration(Long.toString(DelayStrategies.millis(delay))).build());
    }
}
