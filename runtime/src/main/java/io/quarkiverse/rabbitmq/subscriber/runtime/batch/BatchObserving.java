package io.quarkiverse.rabbitmq.subscriber.runtime.batch;

import java.util.ArrayList;
import java.util.List;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.consume.Handling;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.Observing;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;

/**
 * {@link Observing} for a batch: one observation of the batch (its size, the tracing span linked to each item's
 * context, current while the handler runs) and one per item (the per-message metrics, the context its copies carry),
 * begun on the handler's thread before anything of the handling runs. In every batch chain that has observers.
 */
public final class BatchObserving implements Handling<DeliveryBatch> {

    private final String queue;
    private final Observers observers;
    private final Handling<DeliveryBatch> next;

    public BatchObserving(String queue, Observers observers, Handling<DeliveryBatch> next) {
        this.queue = queue;
        this.observers = observers;
        this.next = next;
    }

    @Override
    public Object run(DeliveryBatch batch) {
        List<AMQP.BasicProperties> properties = new ArrayList<>(batch.items().size());
        for (InboundDelivery item : batch.items()) {
            properties.add(item.wireProperties());
        }
        Observation observation = observers.processingBatch(queue, properties);
        batch.observation(observation);
        for (InboundDelivery item : batch.items()) {
            item.observation(observers.batchItem(queue, item.wireProperties(), item.body().length, observation));
        }
        try {
            return next.run(batch);
        } finally {
            for (InboundDelivery item : batch.items()) {
                item.observation().handlerReturned();
            }
            observation.handlerReturned();
        }
    }
}
