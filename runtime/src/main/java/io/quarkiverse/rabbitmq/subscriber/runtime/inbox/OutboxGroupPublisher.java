package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.runtime.publish.BrokerRabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;

/**
 * Publishes a group of the outbox as the relay and a committed transaction's sends do: every output in order on one
 * confirm channel, {@code mandatory} as its row says, each confirmed. The stage fails with the first output that could
 * not leave.
 */
@Singleton
public class OutboxGroupPublisher {

    @Inject
    BrokerRabbitPublisher publisher;

    CompletableFuture<Void> publish(List<Output> outputs) {
        List<CompletableFuture<Void>> confirms = new ArrayList<>(outputs.size());
        for (Output output : outputs) {
            confirms.add(publisher.publishConfirmed(output.exchange(), output.routingKey(), output.mandatory(),
                    output.properties(), output.body()));
        }
        return CompletableFuture.allOf(confirms.toArray(CompletableFuture[]::new));
    }
}
