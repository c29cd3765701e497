package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.runtime.consume.CommittedOutputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;

/**
 * The outputs of an inbox handler's acked delivery (or batch) as its transaction committed them to the outbox:
 * published after the commit by {@link OutboxBeforeAck} (a batch's by the batch's outputs stage), then their rows are
 * deleted; the relay publishes them if that does not happen.
 *
 * @param inbox whose outbox holds the group
 * @param id the group's id in the outbox table
 */
public record OutboxGroup(Inbox inbox, String id, List<Output> outputs) implements CommittedOutputs {

    @Override
    public void published() {
        inbox.published(id);
    }
}
