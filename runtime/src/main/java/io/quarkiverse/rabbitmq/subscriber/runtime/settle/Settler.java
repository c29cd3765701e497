package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import org.jboss.logging.Logger;

import com.rabbitmq.client.Channel;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.vertx.core.Context;

/**
 * Sends the one frame an outcome stands for, on the channel the delivery came from. Called on the subscriber's event
 * loop: amqp-client writes the frame from the calling thread, so there is no hop to a worker for it.
 */
public final class Settler {

    private static final Logger LOG = Logger.getLogger(Settler.class);

    private final Channel channel;
    private final SettlementStats stats;

    public Settler(Channel channel, SettlementStats stats) {
        this.channel = channel;
        this.stats = stats;
    }

    /** Settles the delivery as the outcome says; returns false (and sends nothing) if it was settled already. */
    public boolean settle(InboundDelivery delivery, Outcome outcome) {
        if (!delivery.markSettled()) {
            LOG.errorf("Delivery %s on queue '%s' was already settled; ignoring the second outcome %s",
                    delivery.describe(), delivery.queue(), outcome);
            return false;
        }
        try {
            switch (outcome.kind()) {
                case ACK -> channel.basicAck(delivery.deliveryTag(), false);
                case RETRY -> channel.basicReject(delivery.deliveryTag(), true);
                case DROP -> channel.basicReject(delivery.deliveryTag(), false);
            }
        } catch (Exception e) {
            // The channel is gone: the broker requeues every delivery it had not seen settled, so nothing is lost.
            LOG.warnf("Could not send %s for %s on queue '%s' (%s); RabbitMQ requeues it with the channel", outcome,
                    delivery.describe(), delivery.queue(), e.toString());
        }
        stats.record(outcome.kind(), Context.isOnEventLoopThread());
        return true;
    }
}
