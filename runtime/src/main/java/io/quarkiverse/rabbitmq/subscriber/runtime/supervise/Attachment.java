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
     * Consumes with consumer priority {@code priority} from now on: a new consumer on the channel, the old one left
     * registered. On a queue with single active consumer, the old one (of a lower priority) then gets nothing more and
     * hands over to the new one only once what it holds is settled. Cancelled, it would not: RabbitMQ makes the next
     * consumer active at once, whatever the cancelled one holds, so the new one gets the later messages while the old
     * still holds the earlier ones; if the connection is cut then, RabbitMQ gives each consumer's messages back apart,
     * the later ones first, and the next active consumer handles a key's later messages before its earlier ones (the
     * partitions proof on RabbitMQ 4.3.6, the connected node stopped: 50-127 keys of 1,000 out of order). The old
     * consumers go with the channel; {@link #cancel()} and {@link #pause()} cancel them all.
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
            /**
             * The consumers on the channel, the newest last: one, or more after claims (see consumeWithPriority).
             * Replaced when the subscriber consumes again on the same channel (after a reconnection or a pause).
             */
            private volatile java.util.List<String> tags = java.util.List.of(consumerTag);
            /** Changes when a partition is claimed with a priority. */
            private volatile java.util.Map<String, Object> current = arguments;

            @Override
            public void consumeAgain(String queue) throws Exception {
                // basic.qos applies to the consumers created after it on the channel.
                channel.qos(prefetch.getAsInt());
                tags = java.util.List.of(channel.consume(queue, consumer, current));
            }

            @Override
            public void consumeWithPriority(String queue, int priority) throws Exception {
                java.util.Map<String, Object> raised = new java.util.LinkedHashMap<>(current);
                raised.put("x-priority", priority);
                channel.qos(prefetch.getAsInt());
                String added = channel.consume(queue, consumer, raised);
                java.util.List<String> all = new java.util.ArrayList<>(tags);
                all.add(added);
                tags = java.util.List.copyOf(all);
                current = raised;
            }

            /** Cancels every consumer on the channel; one gone with its channel or connection is skipped. */
            private void cancelAll() {
                for (String tag : tags) {
                    try {
                        channel.cancel(tag);
                    } catch (Exception e) {
                        // Gone with its channel or connection: nothing more is delivered either way.
                    }
                }
            }

            @Override
            public void cancel() {
                stopTakingDeliveries.run();
                cancelAll();
            }

            @Override
            public void stopTaking() {
                stopTakingDeliveries.run();
            }

            @Override
            public void pause() {
                // One gone with its channel or connection: its loss subscribes again, paused.
                cancelAll();
            }

            @Override
            public void close() {
                stopTakingDeliveries.run();
                closeBoth(channel, copies);
            }
        };
    }
}
