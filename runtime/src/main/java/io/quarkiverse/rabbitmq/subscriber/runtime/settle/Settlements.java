package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.List;

/**
 * What the delivery path asks of settlement, stage by stage: the routes record arrivals, the last stage settles, the
 * outputs stage publishes before the ack. {@link Settler} is the one implementation; the stages' unit tests record
 * the calls instead, so none of them needs a channel.
 */
public interface Settlements {

    /**
     * A delivery arrived: its body counts against the subscription's bound on unsettled bytes, and it takes its place
     * in the ack window. On the client's reader thread, in delivery order, before anything else is done with it.
     */
    void arrived(Unsettled delivery);

    /** Carries out the settlement; false (nothing sent) when the delivery was settled already. */
    boolean settle(Unsettled delivery, Settlement settlement);

    /** Publishes a handler's outputs, each confirmed; the answer (on the event loop) says what to settle the delivery with. */
    java.util.concurrent.CompletionStage<PublishAnswer> publishOutputs(Unsettled delivery, List<Output> outputs);

    /**
     * Whether so many results of handlers that ran off the event loop may wait for the loop's next wake-up: it is
     * due within the ack pacing's few milliseconds (a timer is set to flush waiting acks), and their acks would wait
     * for that flush anyway. Any thread.
     */
    default boolean resultsMayWait(int results) {
        return false;
    }

    /** Marks a delivery whose channel is gone as settled by the broker. */
    void abandoned(Unsettled delivery);

    /** Gives a delivery back to its queue after a pause, then runs {@code settled}. */
    void requeueAfterPause(Unsettled delivery, Runnable settled);
}
