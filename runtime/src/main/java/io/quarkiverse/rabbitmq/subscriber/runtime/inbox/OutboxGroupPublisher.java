package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;

/**
 * Publishes a group of the outbox as the relay and a committed transaction's sends do: every output in order on one
 * confirm channel, {@code mandatory} as its row says, each confirmed. The stage fails with the first output that could
 * not leave.
 */
@Singleton
public class OutboxGroupPublisher {

    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.publish.RabbitPublishers publishers;

    CompletableFuture<Void> publish(List<Output> outputs) {
        List<CompletableFuture<Void>> confirms = new ArrayList<>(outputs.size());
        for (Output output : outputs) {
            // Each row to the broker it names: its subscription's, or the one its sender named. One no longer
            // configured fails this group alone, naming the broker, and its rows stay.
            try {
                confirms.add(publishers.of(output.broker()).publishConfirmed(output.exchange(), output.routingKey(),
                        output.mandatory(), output.properties(), output.body()));
            } catch (IllegalArgumentException e) {
                confirms.add(CompletableFuture.failedFuture(e));
                break;
            }
        }
        return CompletableFuture.allOf(confirms.toArray(CompletableFuture[]::new));
    }
}
