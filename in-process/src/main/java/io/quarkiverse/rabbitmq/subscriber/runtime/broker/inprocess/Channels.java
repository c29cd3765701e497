package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.Set;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;

/**
 * The server's side of opening and closing channels: their numbers, and what a close undoes. A method the server
 * refuses closes its channel, so every part refuses through here. Server thread only.
 */
final class Channels {

    private final InProcessServer server;
    private int channelNumbers;
    /** The channels open now, in the order they opened. */
    private final Set<ServerChannel> open = new LinkedHashSet<>();

    Channels(InProcessServer server) {
        this.server = server;
    }

    ServerChannel open() {
        ServerChannel channel = new ServerChannel(++channelNumbers);
        open.add(channel);
        return channel;
    }

    /** Closes every open channel for {@code reason}, as a server's forced close of its connections does. */
    void closeAll(BrokerException reason) {
        for (ServerChannel channel : new ArrayList<>(open)) {
            close(channel, reason);
        }
    }

    /** Closes the channel: its consumers go, its unacked deliveries return to their queues. */
    void close(ServerChannel channel, BrokerException reason) {
        if (!channel.open) {
            return;
        }
        channel.open = false;
        open.remove(channel);
        channel.closedBy = reason;
        for (ServerConsumer consumer : channel.consumers.values()) {
            consumer.queue.consumers.remove(consumer);
        }
        channel.consumers.clear();
        server.directReplyTo.release(channel);
        Set<ServerQueue> touched = new LinkedHashSet<>();
        for (ServerChannel.Unacked delivery : new ArrayList<>(channel.unacked.values())) {
            server.thread.unackedChanged(-1);
            server.queues.returnToQueue(delivery.queue(), delivery.message(), false);
            touched.add(delivery.queue());
        }
        channel.unacked.clear();
        // A cancelled single active consumer that stayed the active one (ServerQueue.cancelledActiveStays) goes now.
        for (ServerQueue queue : server.queues.byName().values()) {
            if (queue.active != null && queue.active.channel == channel) {
                touched.add(queue);
            }
        }
        touched.forEach(server.deliveries::dispatch);
        if (channel.listener != null) {
            channel.listener.closed(reason == null ? "closed by the application" : reason.replyText());
        }
        if (reason != null && channel.brokerCloseListener != null) {
            channel.brokerCloseListener.accept(reason);
        }
    }

    /** A method the server refuses closes the channel, and the caller gets the reason. */
    BrokerException refuse(ServerChannel channel, int code, String text) {
        BrokerException refusal = new BrokerException(code, text, null);
        close(channel, refusal);
        return refusal;
    }
}
