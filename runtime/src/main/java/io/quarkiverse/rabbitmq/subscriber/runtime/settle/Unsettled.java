package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import com.rabbitmq.client.AMQP;

/**
 * A delivery as the settler sees it: its tag, its place in the ack window, and the message a copy is made of. The
 * consuming side implements it, so this package does not depend on that one.
 */
public interface Unsettled {

    long deliveryTag();

    AckSlot ackSlot();

    void ackSlot(AckSlot slot);

    /** Marks the delivery settled; false when it already was. Called on the subscriber's event loop only. */
    boolean markSettled();

    /** Whether the broker delivered it before (AMQP's {@code redelivered} flag). */
    boolean redelivered();

    /** The properties as the handler is told of them (the publisher's {@code user-id}: see {@link Provenance}). */
    AMQP.BasicProperties wireProperties();

    /** Whether the runtime published this message itself ({@link Provenance#wrote}). */
    default boolean writtenByRuntime() {
        return false;
    }

    /** The queue the delivery came from. */
    String queue();

    /** The exchange the message was first published to (see {@link OriginalRoute}). */
    String exchange();

    /** The routing key the message was first published with. */
    String routingKey();

    byte[] body();

    /** How the message is named in logs. */
    String describe();

    /** How observers (metrics, tracing) follow this delivery. */
    default io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation observation() {
        return io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation.NONE;
    }
}
