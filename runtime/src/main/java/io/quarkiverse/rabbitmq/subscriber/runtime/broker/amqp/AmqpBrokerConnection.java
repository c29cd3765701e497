package io.quarkiverse.rabbitmq.subscriber.runtime.broker.amqp;

import java.io.IOException;

import com.rabbitmq.client.Connection;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;

/** A connection to a real RabbitMQ server through amqp-client. */
public final class AmqpBrokerConnection implements BrokerConnection {

    private final Connection connection;
    private final String description;

    public AmqpBrokerConnection(Connection connection, String description) {
        this.connection = connection;
        this.description = description;
    }

    @Override
    public BrokerChannel createChannel() throws IOException {
        return new AmqpBrokerChannel(connection.createChannel());
    }

    @Override
    public boolean isOpen() {
        return connection.isOpen();
    }

    @Override
    public void close() {
        try {
            if (connection.isOpen()) {
                connection.close(5_000);
            }
        } catch (Exception ignored) {
            // already closed by the server
        }
    }

    @Override
    public String describe() {
        return "RabbitMQ at " + description;
    }
}
