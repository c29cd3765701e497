package io.quarkiverse.rabbitmq.subscriber.runtime.killswitch;

import java.util.function.BooleanSupplier;

import io.quarkiverse.rabbitmq.subscriber.runtime.consume.Handling;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/**
 * While the subscription's kill switch is tripped, a delivery (or a batch of them) already on its way does not reach
 * the handler: it goes back to its queue unhandled ({@link Verdict#NOT_RUN}). Checked on the handler's thread, just before the
 * call.
 * Only in the
 * chain of a subscription that has a kill switch.
 */
public final class KillSwitchCheck<U> implements Handling<U> {

    /** The subscription's {@code KillSwitch.tripped}. */
    private final BooleanSupplier tripped;
    private final Handling<U> next;

    public KillSwitchCheck(BooleanSupplier tripped, Handling<U> next) {
        this.tripped = tripped;
        this.next = next;
    }

    @Override
    public Object run(U unit) {
        return tripped.getAsBoolean() ? Verdict.NOT_RUN : next.run(unit);
    }
}
