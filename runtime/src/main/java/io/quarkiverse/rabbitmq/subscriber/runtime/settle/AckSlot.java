package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

/**
 * One delivery's place in its channel's {@link AckWindow}, held by the delivery itself so that settling it finds its
 * place without a search. Touched only on the subscriber's event loop.
 */
public final class AckSlot {

    final long tag;
    byte state = AckWindow.IN_FLIGHT;
    /** Neighbours among the slots whose frame has not been sent; both null once the slot left the window. */
    AckSlot previous;
    AckSlot next;

    AckSlot(long tag) {
        this.tag = tag;
    }

    public long tag() {
        return tag;
    }
}
