package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.runtime.output.Output;

/**
 * The outputs of an inbox handler's acked delivery as its transaction committed them to the outbox: published after
 * the commit by {@link OutboxBeforeAck}, by the relay if that does not happen.
 *
 * @param id the group's id in the outbox table
 */
record OutboxGroup(String id, List<Output> outputs) {
}
