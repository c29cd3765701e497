package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;

/** A connection to the in-process broker. Closing it closes its channels, returning their unacked deliveries. */
public final class InProcessConnection implements BrokerConnection {

    private final InProcessServer server;
    private final List<InProcessChannel> channels = new CopyOnWriteArrayList<>();
    private volatile boolean open = true;

    InProcessConnection(InProcessServer server) {
        this.server = server;
    }

    @Override
    public BrokerChannel createChannel() throws IOException {
        if (!open) {
            throw new IOException("The in-process broker connection is closed");
        }
        InProcessChannel channel = new InProcessChannel(server, server.openChannel(), channels::remove);
        channels.add(channel);
        return channel;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
        for (InProcessChannel channel : channels) {
            channel.close();
        }
        channels.clear();
    }

    /** Every in-process connection stands for RabbitMQ's default login, which checks a user-id as RabbitMQ does. */
    @Override
    public String serverVersion() {
        return server.version().emulates();
    }

    @Override
    public String user() {
        return Routing.USER;
    }

    @Override
    public String describe() {
        return "the in-process broker";
    }
}
