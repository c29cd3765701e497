package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.time.Duration;

/**
 * What happens to one delivery, decided by {@link SettlementPlan} without any I/O and carried out by the
 * {@link Settler} on the subscriber's event loop.
 */
public sealed interface Settlement {

    Settlement ACK = new Ack();
    Settlement REQUEUE = new Reject(true);
    Settlement REJECT = new Reject(false);
    Settlement KEEP = new Keep();

    /** {@code basic.ack}. */
    record Ack() implements Settlement {
    }

    /** {@code basic.reject}, with or without requeue (never {@code basic.nack}: RabbitMQ 4.3 does not count nacks). */
    record Reject(boolean requeue) implements Settlement {
    }

    /**
     * Back to the head of its queue, unhandled and uncounted ({@code basic.reject} requeue): a delivery its handler
     * never ran for, since the kill switch paused the subscriber as it arrived.
     */
    record Keep() implements Settlement {
    }

    /**
     * Publish a copy of the message through the default exchange, {@code mandatory}, on the delivery's channel, then
     * ack the original. The copy keeps every header and property but the broker's death headers, carries the
     * retry-count header set to {@code retryCount} and, after a failure, the failure's type and message.
     *
     * @param target a copy back to the work queue, or a dead letter
     * @param queue where it goes (its routing key)
     * @param delay zero to publish now; longer: the subscription's delay strategy says where the copy waits that
     *        long (held in the service, the original acked at once; or published now to a waiting queue or the
     *        delayed exchange)
     * @param confirmed whether the original waits for the broker's confirm of the copy
     * @param reason why the handler dead-lettered it ({@code Outcome.deadLetter}), or why it is parked; null otherwise
     */
    record Republish(Target target, String queue, int retryCount, FailureInfo failure, Duration delay,
            boolean confirmed, String reason) implements Settlement {

        public Republish(Target target, String queue, int retryCount, FailureInfo failure, Duration delay,
                boolean confirmed) {
            this(target, queue, retryCount, failure, delay, confirmed, null);
        }

        /** What is published, as the log names it. */
        public String what() {
            return target == Target.PARK ? "the parked letter"
                    : target == Target.DEAD_LETTER ? "the dead letter"
                            : delay.isZero() ? "the copy for attempt " + retryCount
                                    : "the delayed copy for attempt " + retryCount;
        }
    }

    /**
     * Not settled: handled again in place after {@code delay}, as attempt {@code attempt}, the delivery held meanwhile
     * (a partition's retry: nothing behind it may pass it). The stage that waits never lets it reach the channel.
     */
    record Again(Duration delay, int attempt) implements Settlement {
    }

    enum Target {
        COPY,
        DEAD_LETTER,
        /**
         * A letter a dead-letter queue's own reader cannot handle, moved to that queue's parking queue (confirmed) so
         * the reader goes on with the others; it carries why in {@code x-parked-reason}.
         */
        PARK
    }
}
