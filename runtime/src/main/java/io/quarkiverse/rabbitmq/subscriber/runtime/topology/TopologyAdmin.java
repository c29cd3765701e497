package io.quarkiverse.rabbitmq.subscriber.runtime.topology;

import java.io.IOException;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberBuildTimeConfig;

/**
 * Makes the broker hold what a plan needs, the way {@code quarkus.rabbitmq-subscriber.declare-topology} says: declared
 * (idempotently, refusing a queue that exists with other arguments) or only checked to exist. Called once at startup
 * for every subscription, and again by each subscriber before it consumes after a cut, since a broker that restarted
 * may have lost its queues.
 */
@Singleton
public class TopologyAdmin {

    @Inject
    SubscriberBuildTimeConfig buildTimeConfig;

    /** @param broker whose queues they are: its {@code declare-topology} decides */
    public void prepare(BrokerConnection connection, TopologyPlan plan, String broker) throws IOException {
        if (buildTimeConfig.declareTopology(broker)) {
            TopologyDeclarer.declare(connection, plan);
        } else {
            TopologyDeclarer.checkExists(connection, plan);
        }
    }
}
