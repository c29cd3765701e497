package io.quarkiverse.rabbitmq.subscriber.runtime.flow;

/**
 * What a bound tells the subscriber it belongs to (held copies, unsettled bytes): stop taking deliveries, take them
 * again. The subscriber's {@code HoldBacks} key each bound apart, so it consumes only once none
 * holds it back. Called from the subscriber's event loop: must not wait for anything.
 */
public interface BackPressure {

    /** The bound is reached: no more deliveries until {@link #room()}. */
    void full();

    /** There is room again. */
    void room();
}
