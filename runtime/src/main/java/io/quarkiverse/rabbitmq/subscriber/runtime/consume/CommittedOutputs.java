package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;

/**
 * A handler's outputs as a transaction committed them with its effects (the inbox's outbox): published before the
 * delivery is acked, and told when they are, so the copy kept for a crash can go. The inbox feature implements it; the
 * core only carries it from the handler's thread to the verdict.
 */
public interface CommittedOutputs {

    List<Output> outputs();

    /** RabbitMQ confirmed every output: what was kept in case they were not can go. Returns at once. */
    void published();
}
