package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.Collections;
import java.util.Map;
import java.util.OptionalInt;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.AckSlot;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.OriginalRoute;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Unsettled;

/**
 * One message handed to a subscriber, as the handler sees it ({@link Delivery}) and as the settler needs it (the
 * delivery tag and whether it was settled).
 */
public final class InboundDelivery implements Delivery, Unsettled {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(InboundDelivery.class);
    /** A whole number written out, of any length. */
    private static final java.util.regex.Pattern DIGITS = java.util.regex.Pattern.compile("[+-]?[0-9]+");

    private final String queue;
    private final Envelope envelope;
    private final AMQP.BasicProperties properties;
    private final byte[] body;
    private final String retryCountHeader;
    /** Whether the runtime published this message ({@link Provenance}): only then are its route headers read. */
    private final boolean writtenByRuntime;
    /** Only read and written on the subscriber's event loop. */
    private boolean settled;
    /** The retry count once read (0: not yet). */
    private int retryCount;
    private AckSlot ackSlot;
    /** Set where the handler runs, before it; read on the event loop after (the completion hand-off orders them). */
    private volatile io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation observation = io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation.NONE;
    /** The handler's outputs, set where it runs, before it (as the observation); null when it takes none. */
    private volatile io.quarkiverse.rabbitmq.subscriber.runtime.output.HeldOutputs outputs;
    /** Set on the handler's thread in the inbox's transaction, read on the event loop after it. */
    private volatile OutboxGroup outboxGroup;

    public InboundDelivery(String queue, Envelope envelope, AMQP.BasicProperties properties, byte[] body,
            String retryCountHeader) {
        this(queue, envelope, properties, body, retryCountHeader, Provenance.NONE);
    }

    /** @param provenance tells whether the runtime wrote the message, so whether its route headers are honoured */
    public InboundDelivery(String queue, Envelope envelope, AMQP.BasicProperties properties, byte[] body,
            String retryCountHeader, Provenance provenance) {
        this.queue = queue;
        this.envelope = envelope;
        this.body = body;
        this.retryCountHeader = retryCountHeader;
        this.writtenByRuntime = provenance.wrote(properties);
        this.properties = writtenByRuntime ? provenance.asPublished(properties) : properties;
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
        return writtenByRuntime ? OriginalRoute.exchange(properties.getHeaders(), envelope.getExchange())
                : envelope.getExchange();
    }

    @Override
    public String routingKey() {
        return writtenByRuntime ? OriginalRoute.routingKey(properties.getHeaders(), envelope.getRoutingKey())
                : envelope.getRoutingKey();
    }

    @Override
    public boolean writtenByRuntime() {
        return writtenByRuntime;
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
        int count = retryCount;
        if (count == 0) {
            count = readRetryCount();
            retryCount = count;
        }
        return count;
    }

    /**
     * The retry-count header as a count of at least 1: a number, or a string of digits (other services may write it as
     * text). Out of range, it is clamped, by one rule for both: zero or negative counts as the first delivery, beyond
     * the largest int (digits beyond the long range too) as the largest (so a cap ends it at once). Anything else counts as the
     * first. Each of those gets one WARN naming the
     * header, the message and the queue.
     */
    private int readRetryCount() {
        Object count = header(retryCountHeader);
        if (count == null) {
            return 1;
        }
        long value;
        if (count instanceof java.math.BigDecimal decimal) {
            // An AMQP decimal: longValue() would wrap beyond the long range; clamped as digits are.
            value = decimal.compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE
                    : decimal.compareTo(java.math.BigDecimal.valueOf(Long.MIN_VALUE)) < 0 ? Long.MIN_VALUE
                            : decimal.longValue();
        } else if (count instanceof Number n) {
            value = n.longValue();
        } else {
            String text = count.toString().trim();
            try {
                value = Long.parseLong(text);
            } catch (NumberFormatException e) {
                if (DIGITS.matcher(text).matches()) {
                    // Digits beyond the long range: clamped as the same value written as a number is.
                    value = text.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
                } else {
                    LOG.warnf("The %s header of %s on queue '%s' is not a count (%s '%s'): counting this delivery as the "
                            + "first", retryCountHeader, describe(), queue,
                            count instanceof CharSequence || count instanceof com.rabbitmq.client.LongString ? "text"
                                    : count.getClass().getSimpleName(),
                            LogText.of(text.length() > 100 ? text.substring(0, 100) + "..." : text));
                    return 1;
                }
            }
        }
        if (value < 1) {
            LOG.warnf("The %s header of %s on queue '%s' is %d, not a count: counting this delivery as the first",
                    retryCountHeader, describe(), queue, value);
            return 1;
        }
        if (value > Integer.MAX_VALUE) {
            LOG.warnf("The %s header of %s on queue '%s' is %d, beyond any cap: counting it as %d", retryCountHeader,
                    describe(), queue, value, Integer.MAX_VALUE);
            return Integer.MAX_VALUE;
        }
        return (int) value;
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
    public String replyTo() {
        return properties.getReplyTo();
    }

    @Override
    public String correlationId() {
        return properties.getCorrelationId();
    }

    @Override
    public AMQP.BasicProperties properties() {
        return properties;
    }

    /** How the message is named in logs: its id, else its delivery tag. */
    @Override
    public String describe() {
        String id = properties.getMessageId();
        // A publisher's text: escaped, so it cannot forge log lines.
        return id != null ? "message-id " + LogText.of(id)
                : "delivery-tag " + envelope.getDeliveryTag() + " (no message-id)";
    }

    @Override
    public io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation observation() {
        return observation;
    }

    /** Closes the handler's outputs and returns what it sent (none when it takes no {@code Outputs}). */
    java.util.List<io.quarkiverse.rabbitmq.subscriber.runtime.output.Output> takeOutputs() {
        io.quarkiverse.rabbitmq.subscriber.runtime.output.HeldOutputs held = outputs;
        return held == null ? java.util.List.of() : held.take();
    }

    /** The outputs its inbox transaction committed to the outbox, to publish before the ack; null when none. */
    OutboxGroup outboxGroup() {
        return outboxGroup;
    }

    void outboxGroup(OutboxGroup group) {
        this.outboxGroup = group;
    }

    void outputs(io.quarkiverse.rabbitmq.subscriber.runtime.output.HeldOutputs outputs) {
        this.outputs = outputs;
    }

    void observation(io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation observation) {
        this.observation = observation;
    }
}
