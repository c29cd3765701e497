package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

/** What queue.declare answers: the ready messages and the consumers of a queue. */
public record QueueState(String queue, int messageCount, int consumerCount) {
}
