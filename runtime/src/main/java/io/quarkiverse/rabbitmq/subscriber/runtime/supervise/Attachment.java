package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;

/**
 * A subscriber's consumer on its channel, with the channel of its copies when they have one of their own: what one
 * successful subscribe produced.
 */
public interface Attachment {

    /**
     * Consumes again on the channel (recovered, or after holding back), with the same consumer (its deliveries keep
     * their order and bound), at the prefetch the subscription consumes with now.
     */
    void consumeAgain(String queue) throws Exception;

    /**
     * Consumes with consumer priority {@code priority} from now on: a new consumer on the channel first, then the old
     * one cancelled. The other way round, on a queue with single active consumer, cancelling the active consumer would
     * make another instance's active while this one still handles what it holds; added first, the new one (of a higher
     * priority) takes over from the old only once that is settled, and the old one's cancel changes nothing.
     */
    void consumeWithPriority(String queue, int priority) throws Exception;

    /** Stops taking deliveries and cancels the consumer; what is in flight still settles on the channel. Never throws. */
    void cancel();

    /**
     * Stops taking deliveries and leaves the consumer as it is: what the broker sends from now on waits, unsettled, for
     * the channel's close. Never throws.
     */
    void stopTaking();

    /**
     * The connection is cut (amqp-client reconnects, then {@link #consumeAgain} follows): what this channel delivered can
     * no longer be settled on it. Nothing to do by default: what was delivered is still handled, and comes again (at
     * least once). Never throws.
     */
    default void connectionLost() {
    }

    /**
     * A graceful stop's first step; {@link #close()} follows once what is in flight has settled. Cancels the consumer,
     * so that the broker sends nothing more meanwhile. Never throws.
     */
    default void stopForClose() {
        cancel();
    }

    /**
     * Back-pressure: cancels the consumer so the broker sends no more, and handles what it sent already (unlike
     * {@link #cancel()}, which leaves that for the channel's close). {@link #consumeAgain} ends it. Never throws.
     */
    void pause();

    /**
     * Closes the channel, then the copies' own: the broker requeues what it had not seen settled (a copy still on its
     * way may land: a duplicate, never a loss). Never throws.
     */
    void close();

    /** Closes the delivery channel, then the copies' own (null when they have none). Never throws. */
    static void closeBoth(BrokerChannel channel, BrokerChannel copies) {
        channel.close();
        if (copies != null) {
            copies.close();
        }
    }

    /**
     * @param copies the copies' own channel, null when they go on {@code channel}
     * @param consumer takes the deliveries; consumes again after a reconnection
     * @param stopTakingDeliveries the consumer's: what arrives after a cancel or a close is left to the broker
     * @param prefetch the prefetch to consume again with (a bound on unsettled bytes may have cut it)
     * @param arguments the consumer's arguments ({@code x-priority}, {@code x-consumer-timeout}), again each time
     */
    static Attachment of(BrokerChannel channel, BrokerChannel copies, DeliveryHandler consumer,
            Runnable stopTakingDeliveries, String consumerTag, java.util.function.IntSupplier prefetch,
            java.util.Map<String, Object> arguments) {
        return new Attachment() {
            /** Changes when the subscriber consumes again on the same channel after a reconnection. */
            private volatile String tag = consumerTag;
            /** Changes when a partition is claimed with a priority. */
            private volatile java.util.Map<String, Object> current = arguments;

            @Override
            public void consumeAgain(String queue) throws Exception {
                // basic.qos applies to the consumers created after it on the channel.
                channel.qos(prefetch.getAsInt());
                tag = channel.consume(queue, consumer, current);
            }

            @Override
            public void consumeWithPriority(String queue, int priority) throws Exception {
                java.util.Map<String, Object> raised = new java.util.LinkedHashMap<>(current);
                raised.put("x-priority", priority);
                String old = tag;
                channel.qos(prefetch.getAsInt());
                tag = channel.consume(queue, consumer, raised);
                current = raised;
                channel.cancel(old);
            }

            @Override
            public void cancel() {
                stopTakingDeliveries.run();
                try {
                    channel.cancel(tag);
                } catch (Exception e) {
                    // Gone with its channel or connection: nothing more is delivered either way.
                }
            }

            @Override
            public void stopTaking() {
                stopTakingDeliveries.run();
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
                stopTakingDeliveries.run();
                closeBoth(channel, copies);
            }
        };
    }
}
