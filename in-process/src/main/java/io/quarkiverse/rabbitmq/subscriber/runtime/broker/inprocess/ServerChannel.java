package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.util.LinkedHashMap;
import java.util.Map;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;

/**
 * The broker's side of a channel: its delivery tags, unacked deliveries, consumers (a direct reply-to one too) and
 * confirm mode.
 */
final class ServerChannel {

    /** A delivery not settled yet: by a consumer, or by basic.get without auto-ack (consumer null). */
    record Unacked(ServerMessage message, ServerQueue queue, ServerConsumer consumer) {
    }

    final int number;
    final Map<Long, Unacked> unacked = new LinkedHashMap<>();
    final Map<String, ServerConsumer> consumers = new LinkedHashMap<>();
    long nextDeliveryTag = 1;
    int prefetch;
    PublishListener listener;
    java.util.function.Consumer<BrokerException> brokerCloseListener;
    boolean confirming;
    /** Its consumer of the direct reply-to pseudo-queue, or null. */
    DirectReplyTo.Consumer replyConsumer;
    /** Set when the broker closed the channel: why, for the calls that follow. */
    volatile BrokerException closedBy;
    volatile boolean open = true;

    ServerChannel(int number) {
        this.number = number;
    }

    /** A call on a closed channel fails with the reason the channel was closed for. Any thread. */
    void ensureOpen() throws BrokerException {
        if (!open) {
            BrokerException reason = closedBy;
            throw new BrokerException(reason == null ? 504 : reason.replyCode(),
                    reason == null ? "channel is already closed" : reason.replyText(), reason);
        }
    }
}
