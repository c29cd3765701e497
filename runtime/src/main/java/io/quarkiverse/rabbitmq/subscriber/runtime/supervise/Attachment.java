package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.SubscriberConsumer;

/** A subscriber's consumer on its channel: what one successful subscribe produced. */
public interface Attachment {

    /** Consumes again on the recovered channel, with the same consumer (its deliveries keep their order and bound). */
    void consumeAgain(String queue) throws Exception;

    /** Stops taking deliveries and cancels the consumer; what is in flight still settles on the channel. Never throws. */
    void cancel();

    /**
     * Back-pressure: cancels the consumer so the broker sends no more, and handles what it sent already (unlike
     * {@link #cancel()}, which leaves that for the channel's close). {@link #consumeAgain} ends it. Never throws.
     */
    void pause();

    /** Closes the channel: the broker requeues what it had not seen settled. Never throws. */
    void close();

    static Attachment of(BrokerChannel channel, SubscriberConsumer consumer, String consumerTag) {
        return new Attachment() {
            /** Changes when the subscriber consumes again on the same channel after a reconnection. */
            private volatile String tag = consumerTag;

            @Override
            public void consumeAgain(String queue) throws Exception {
                tag = channel.consume(queue, consumer);
            }

            @Override
            public void cancel() {
                consumer.stopTakingDeliveries();
                try {
                    channel.cancel(tag);
                } catch (Exception e) {
                    // Gone with its channel or connection: nothing more is delivered either way.
                }
            }

            @Override
            public void pause() {
                try {
                    channel.cancel(tag);
                } catch (Exception e) {
                    // Gone with its channel or connection: its loss subscribes again, paused.
                }
            }

            @Override
            public void close() {
                consumer.stopTakingDeliveries();
                channel.close();
            }
        };
    }
}
