package io.quarkiverse.rabbitmq.subscriber.runtime.batch;

/** One step of a closed batch on its way to the handler, on the subscriber's event loop ({@link InvokeBatch}). */
@FunctionalInterface
public interface BatchStage {

    void pass(DeliveryBatch batch);
}
