package io.quarkiverse.rabbitmq.subscriber.runtime.assemble;

import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.OutcomeCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.SettlementStats;

/**
 * What every subscriber's deliveries add up to, across channels and reconnections: how many are in flight (the
 * graceful stop waits for them), what became of them by queue (the Dev UI), and the settlement checks tests read.
 * Written by the subscribers the assembler builds, read by the engine and {@code SubscriberStatus}.
 */
@Singleton
public class DeliveryCounters {

    private final SettlementStats stats = new SettlementStats();
    private final OutcomeCounters outcomes = new OutcomeCounters();
    private final InFlight inFlight = new InFlight();

    public SettlementStats stats() {
        return stats;
    }

    public OutcomeCounters outcomes() {
        return outcomes;
    }

    public InFlight inFlight() {
        return inFlight;
    }
}
