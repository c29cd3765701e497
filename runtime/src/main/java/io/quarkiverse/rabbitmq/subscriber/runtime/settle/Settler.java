package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.function.IntConsumer;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/**
 * Sends the one frame an outcome stands for, on the channel the delivery came from, from the subscriber's event loop:
 * amqp-client writes the frame from the calling thread, so there is no hop to a worker for it.
 * <p>
 * Rejects go out at once. Acks are gathered in an {@link AckWindow} and sent at the end of the event loop's current
 * batch, one {@code basic.ack multiple=true} for a run of consecutive acks: each delivery is still settled exactly
 * once, with far fewer frames for the broker to process.
 */
public final class Settler {

    private static final Logger LOG = Logger.getLogger(Settler.class);

    private final BrokerChannel channel;
    private final String queue;
    private final ContextInternal eventLoop;
    private final SettlementStats stats;
    /** Told how many deliveries left the window, once their frames are written. */
    private final IntConsumer onSent;
    private final AckWindow window = new AckWindow();
    private final AckWindow.AckSender sender = this::sendAck;
    private boolean flushScheduled;

    public Settler(BrokerChannel channel, String queue, Context eventLoop, SettlementStats stats, IntConsumer onSent) {
        this.channel = channel;
        this.queue = queue;
        this.eventLoop = (ContextInternal) eventLoop;
        this.stats = stats;
        this.onSent = onSent;
    }

    /** Called on the event loop for each delivery, in the order they arrived. */
    public void received(InboundDelivery delivery) {
        delivery.ackSlot(window.add(delivery.deliveryTag()));
    }

    /**
     * Settles the delivery as the outcome says; returns false (and sends nothing) if it was settled already. A
     * {@code retryAfter} is acked here: its copy is the delay strategy's business, arranged before this call.
     */
    public boolean settle(InboundDelivery delivery, Outcome outcome) {
        boolean onOwnLoop = eventLoop.nettyEventLoop().inEventLoop();
        if (!delivery.markSettled()) {
            LOG.errorf("Delivery %s on queue '%s' was already settled; ignoring the second outcome %s",
                    delivery.describe(), queue, outcome);
            return false;
        }
        long tag = delivery.deliveryTag();
        if (outcome.kind() == Outcome.Kind.ACK || outcome.kind() == Outcome.Kind.RETRY_AFTER) {
            window.mark(delivery.ackSlot(), AckWindow.ACK_PENDING);
            scheduleFlush();
        } else {
            window.mark(delivery.ackSlot(), AckWindow.SETTLED);
            try {
                channel.reject(tag, outcome.kind() == Outcome.Kind.RETRY);
            } catch (Exception e) {
                channelGone(outcome.toString(), delivery.describe(), e);
            }
            onSent.accept(1);
            // A reject may open the head of the window for acks waiting behind it.
            scheduleFlush();
        }
        stats.record(outcome.kind(), onOwnLoop);
        return true;
    }

    private void scheduleFlush() {
        if (!flushScheduled) {
            flushScheduled = true;
            // Runs after the tasks already queued on the event loop: the acks they produce go in the same frame.
            eventLoop.runOnContext(ignored -> flush());
        }
    }

    private void flush() {
        flushScheduled = false;
        window.flush(sender);
    }

    private void sendAck(long tag, boolean multiple, int count) {
        try {
            channel.ack(tag, multiple);
        } catch (Exception e) {
            channelGone("ack", "delivery-tag " + tag + (multiple ? " (and the " + (count - 1) + " before it)" : ""), e);
        }
        onSent.accept(count);
    }

    private void channelGone(String what, String which, Exception e) {
        // The channel is gone: the broker requeues every delivery it had not seen settled, so nothing is lost. The
        // engine logs the loss once (a WARN for a connection, an ERROR for a channel): one line per delivery would
        // bury it, so these are DEBUG.
        LOG.debugf("Could not send %s for %s on queue '%s' (%s); RabbitMQ requeues it with the channel", what, which,
                queue, e.toString());
    }
}
