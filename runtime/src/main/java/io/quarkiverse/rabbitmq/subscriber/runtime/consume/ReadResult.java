package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.vertx.core.Context;

/**
 * The one stage every result passes on its way to the channel: what the handling came to becomes its {@link Verdict}
 * ({@link ResultReading}: read and decided, once), passed to the verdict's stages. Whatever goes wrong from here to the
 * settlement (a bug in a later stage), the delivery is still settled: back to its queue, with one ERROR, and its place
 * in the concurrency gate freed.
 */
public final class ReadResult implements ResultStage {

    private static final Logger LOG = Logger.getLogger(ReadResult.class);

    private final Settlements settlements;
    private final Runnable released;
    private final ResultReading reading;
    private final VerdictStage next;

    /** @param released frees the delivery's place (the concurrency gate's); told once per delivery */
    public ReadResult(Settlements settlements, Runnable released, ResultReading reading, VerdictStage next) {
        this.settlements = settlements;
        this.released = released;
        this.reading = reading;
        this.next = next;
    }

    @Override
    public void pass(Context context, InboundDelivery delivery, Object result, boolean async) {
        try {
            next.pass(delivery, reading.verdict(delivery, result, async));
        } catch (Throwable t) {
            LOG.errorf(t, "Settling %s on queue '%s' failed; requeueing it", delivery.describe(), delivery.queue());
            if (!delivery.isSettled() && settlements.settle(delivery, Settlement.REQUEUE)) {
                released.run();
            }
        }
    }
}
