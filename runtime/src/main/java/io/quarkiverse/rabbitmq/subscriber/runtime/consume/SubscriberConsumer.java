package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;

import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;

/**
 * Receives deliveries on amqp-client's dispatch thread and hands each to the subscriber's event loop, on a fresh
 * duplicated context (so handler-local data does not leak between messages).
 */
public final class SubscriberConsumer extends DefaultConsumer {

    private final String queue;
    private final Context eventLoop;
    private final HandlerDispatcher dispatcher;
    private final InFlight inFlight;
    private final String retryCountHeader;
    private volatile boolean stopping;

    public SubscriberConsumer(Channel channel, String queue, Context eventLoop, HandlerDispatcher dispatcher,
            InFlight inFlight, String retryCountHeader) {
        super(channel);
        this.queue = queue;
        this.eventLoop = eventLoop;
        this.dispatcher = dispatcher;
        this.inFlight = inFlight;
        this.retryCountHeader = retryCountHeader;
    }

    /** From now on deliveries are left unsettled: the broker requeues them when the channel closes. */
    public void stopTakingDeliveries() {
        stopping = true;
    }

    @Override
    public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
        if (stopping) {
            return;
        }
        InboundDelivery delivery = new InboundDelivery(queue, envelope, properties, body, retryCountHeader);
        inFlight.begin();
        Context context = VertxContext.createNewDuplicatedContext(eventLoop);
        VertxContextSafetyToggle.setContextSafe(context, true);
        context.runOnContext(ignored -> dispatcher.dispatch(context, delivery));
    }
}
