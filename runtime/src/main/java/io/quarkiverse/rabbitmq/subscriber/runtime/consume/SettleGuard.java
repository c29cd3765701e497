package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.vertx.core.Context;

/**
 * Whatever goes wrong between a result and its settlement (a bug in a later stage), the delivery is still settled: it
 * goes back to its queue, with one ERROR, and its place in the concurrency gate is freed. First of the stages after
 * the handler.
 */
final class SettleGuard implements ResultStage {

    private static final Logger LOG = Logger.getLogger(SettleGuard.class);

    private final Settlements settlements;
    private final Runnable released;
    private final ResultStage next;

    /** @param released frees the delivery's place (the concurrency gate's); told once per delivery */
    SettleGuard(Settlements settlements, Runnable released, ResultStage next) {
        this.settlements = settlements;
        this.released = released;
        this.next = next;
    }

    @Override
    public void pass(Context context, InboundDelivery delivery, Object result, boolean async) {
        try {
            next.pass(context, delivery, result, async);
        } catch (Throwable t) {
            LOG.errorf(t, "Settling %s on queue '%s' failed; requeueing it", delivery.describe(), delivery.queue());
            if (!delivery.isSettled() && settlements.settle(delivery, Settlement.REQUEUE)) {
                released.run();
            }
        }
    }
}
