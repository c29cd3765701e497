package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.function.BooleanSupplier;

/**
 * While the subscription's kill switch is tripped, a delivery (or a batch of them) already on its way does not reach
 * the handler: it goes back to its queue unhandled ({@link #NOT_RUN}). Checked on the handler's thread, just before the call.
 * Only in the
 * chain of a subscription that has a kill switch.
 */
final class KillSwitchCheck<U> implements Handling<U> {

    /** The result of a delivery its handler never ran for. */
    static final Object NOT_RUN = new Object() {
        @Override
        public String toString() {
            return "not run: the kill switch is tripped";
        }
    };

    /** The subscription's {@code KillSwitch.tripped}. */
    private final BooleanSupplier tripped;
    private final Handling<U> next;

    KillSwitchCheck(BooleanSupplier tripped, Handling<U> next) {
        this.tripped = tripped;
        this.next = next;
    }

    @Override
    public Object run(U unit) {
        return tripped.getAsBoolean() ? NOT_RUN : next.run(unit);
    }
}
