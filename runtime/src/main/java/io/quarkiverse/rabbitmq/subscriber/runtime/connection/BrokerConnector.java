package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import com.rabbitmq.client.ConnectionFactory;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.amqp.AmqpBrokerConnection;

/**
 * Opens the one connection the subscribers and the publisher share. Automatic recovery is on: when the broker goes
 * away and comes back, amqp-client reopens the channels and re-registers the consumers; the deliveries that were
 * unsettled then are requeued by the broker, so none is lost.
 */
public final class BrokerConnector {

    private BrokerConnector() {
    }

    public static BrokerConnection connect(BrokerAddress address, String connectionName) {
        ConnectionFactory factory = new ConnectionFactory();
        try {
            factory.setUri(address.uri());
        } catch (Exception e) {
            throw new IllegalStateException("Invalid RabbitMQ URI " + address.redacted()
                    + " (quarkus.rabbitmq-subscriber.url): " + e.getMessage(), e);
        }
        factory.setAutomaticRecoveryEnabled(true);
        factory.setTopologyRecoveryEnabled(true);
        factory.setNetworkRecoveryInterval(2_000);
        factory.setRequestedHeartbeat(30);
        factory.setConnectionTimeout(10_000);
        try {
            return new AmqpBrokerConnection(factory.newConnection(connectionName), address.redacted());
        } catch (Exception e) {
            throw new IllegalStateException("Cannot connect to RabbitMQ at " + address.redacted() + ": " + e
                    + ". Set quarkus.rabbitmq-subscriber.url to the broker's address.", e);
        }
    }
}
