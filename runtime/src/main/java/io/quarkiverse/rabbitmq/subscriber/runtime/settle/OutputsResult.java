package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

/**
 * What becomes of a delivery whose handler produced outputs and answered {@code ack}: told once, on the subscriber's
 * event loop.
 */
public interface OutputsResult {

    /** Every output was confirmed: ack the delivery. */
    void confirmed();

    /** An output did not reach a queue; {@code why} names its destination. A failure of the delivery. */
    void failed(String why);

    /** The delivery's channel is gone: the broker requeues the delivery with it, nothing is to be sent. */
    void abandoned();

    /**
     * The outputs' own channel closed before RabbitMQ answered (its connection was cut): no failure of the handler.
     * The delivery goes back to its queue after a pause, to be handled again (outputs that did arrive are duplicated,
     * none is lost); {@code why} says what happened.
     */
    void requeue(String why);
}
