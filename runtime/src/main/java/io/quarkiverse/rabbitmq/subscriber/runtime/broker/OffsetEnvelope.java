package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import com.rabbitmq.client.Envelope;

/**
 * The envelope of a message read from a stream: a delivery tag of the consumer's own numbering (so the settler's ack
 * window works as on a queue) and the message's offset in the log, which {@code Delivery.offset()} gives the handler.
 */
public final class OffsetEnvelope extends Envelope {

    private final long offset;

    public OffsetEnvelope(long deliveryTag, String stream, long offset) {
        super(deliveryTag, false, "", stream);
        this.offset = offset;
    }

    public long offset() {
        return offset;
    }
}
