package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.Collections;
import java.util.Map;
import java.util.OptionalInt;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.AckSlot;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Unsettled;

/**
 * One message handed to a subscriber, as the handler sees it ({@link Delivery}) and as the settler needs it (the
 * delivery tag and whether it was settled).
 */
public final class InboundDelivery implements Delivery, Unsettled {

    private final String queue;
    private final Envelope envelope;
    private final AMQP.BasicProperties properties;
    private final byte[] body;
    private final String retryCountHeader;
    /** Only read and written on the subscriber's event loop. */
    private boolean settled;
    private AckSlot ackSlot;

    public InboundDelivery(String queue, Envelope envelope, AMQP.BasicProperties properties, byte[] body,
            String retryCountHeader) {
        this.queue = queue;
        this.envelope = envelope;
        this.properties = properties;
        this.body = body;
        this.retryCountHeader = retryCountHeader;
    }

    @Override
    public long deliveryTag() {
        return envelope.getDeliveryTag();
    }

    @Override
    public byte[] body() {
        return body;
    }

    /** Its place in the channel's ack window, given by the settler when the delivery reaches the event loop. */
    @Override
    public AckSlot ackSlot() {
        return ackSlot;
    }

    @Override
    public void ackSlot(AckSlot slot) {
        this.ackSlot = slot;
    }

    public boolean isSettled() {
        return settled;
    }

    /** Marks the delivery settled; false when it already was. Called by the settler only, on the event loop. */
    @Override
    public boolean markSettled() {
        if (settled) {
            return false;
        }
        settled = true;
        return true;
    }

    @Override
    public String queue() {
        return queue;
    }

    @Override
    public String exchange() {
        return envelope.getExchange();
    }

    @Override
    public String routingKey() {
        return envelope.getRoutingKey();
    }

    @Override
    public boolean redelivered() {
        return envelope.isRedeliver();
    }

    @Override
    public OptionalInt redeliveryCount() {
        Object count = header("x-delivery-count");
        return count instanceof Number n ? OptionalInt.of(n.intValue()) : OptionalInt.empty();
    }

    @Override
    public int retryCount() {
        Object count = header(retryCountHeader);
        if (count instanceof Number n) {
            return Math.max(1, n.intValue());
        }
        if (count != null) {
            // Other services may write the count as a string (AMQP longstr arrives as LongString).
            try {
                return Math.max(1, Integer.parseInt(count.toString().trim()));
            } catch (NumberFormatException e) {
                return 1;
            }
        }
        return 1;
    }

    @Override
    public Map<String, Object> headers() {
        Map<String, Object> headers = properties.getHeaders();
        return headers == null ? Map.of() : Collections.unmodifiableMap(headers);
    }

    @Override
    public Object header(String name) {
        Map<String, Object> headers = properties.getHeaders();
        return headers == null ? null : headers.get(name);
    }

    @Override
    public String messageId() {
        return properties.getMessageId();
    }

    @Override
    public AMQP.BasicProperties properties() {
        return properties;
    }

    /** How the message is named in logs: its id, else its delivery tag. */
    @Override
    public String describe() {
        String id = properties.getMessageId();
        return id != null ? "message-id " + id : "delivery-tag " + envelope.getDeliveryTag() + " (no message-id)";
    }
}
