package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;

/**
 * Begins a delivery's processing observation (metrics, the tracing span) on the handler's thread before anything of
 * its handling runs, and marks the handling's end after: every delivery handled is observed once, by this one stage, a
 * duplicate the inbox acks without calling the handler included (its time is the inbox's lookup). After the kill
 * switch: a delivery not run is not observed, it is handled later. In every chain that has observers.
 */
public final class Observing implements Handling<InboundDelivery> {

    private final String queue;
    private final Observers observers;
    private final Handling<InboundDelivery> next;

    public Observing(String queue, Observers observers, Handling<InboundDelivery> next) {
        this.queue = queue;
        this.observers = observers;
        this.next = next;
    }

    @Override
    public Object run(InboundDelivery delivery) {
        Observation observation = observers.processing(queue, delivery.wireProperties(), delivery.body().length);
        delivery.observation(observation);
        try {
            return next.run(delivery);
        } finally {
            observation.handlerReturned();
        }
    }
}
