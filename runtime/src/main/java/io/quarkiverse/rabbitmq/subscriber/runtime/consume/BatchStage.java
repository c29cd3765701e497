package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

/** One step of a closed batch on its way to the handler, on the subscriber's event loop ({@link InvokeBatch}). */
@FunctionalInterface
interface BatchStage {

    void pass(DeliveryBatch batch);
}
