package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.vertx.core.Context;

/** An event-loop handler: called right here, on the subscriber's event loop, its result passed on at once. */
public final class InvokeOnLoop implements DeliveryStage {

    private final Handling<InboundDelivery> handling;
    private final ResultStage next;

    public InvokeOnLoop(Handling<InboundDelivery> handling, ResultStage next) {
        this.handling = handling;
        this.next = next;
    }

    @Override
    public void pass(Context context, InboundDelivery delivery) {
        next.pass(context, delivery, handling.run(delivery), false);
    }
}
