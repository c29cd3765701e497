package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.MessageProperties;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PlainHeaders;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PlainProperties;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.AckSlot;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.OriginalRoute;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Unsettled;

/**
 * One message handed to a subscriber, as the handler sees it ({@link Delivery}) and as the settler needs it (the
 * delivery tag and whether it was settled).
 */
public final class InboundDelivery implements Delivery, Unsettled {

    private final String queue;
    private final Envelope envelope;
    private final AMQP.BasicProperties properties;
    /** {@link #headers()}, once asked for: read on the handler's thread only, so not volatile. */
    private Map<String, Object> plainHeaders;
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
    private volatile Observation observation = Observation.NONE;
    /** The handler's outputs, set where it runs, before it (as the observation); null when it takes none. */
    private volatile HandlerOutputs outputs;
    /** Set on the handler's thread in the inbox's transaction, read on the event loop after it. */
    private volatile CommittedOutputs committedOutputs;

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
    public long offset() {
        return envelope instanceof io.quarkiverse.rabbitmq.subscriber.runtime.broker.OffsetEnvelope read ? read.offset()
                : -1;
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
    public int attempt() {
        int count = retryCount;
        if (count == 0) {
            count = RetryCountHeader.read(header(retryCountHeader), retryCountHeader, this);
            retryCount = count;
        }
        return count;
    }

    /**
     * It is handled again in place ({@code RetryInPlace}): one delivery more, as {@link #attempt()} tells the handler
     * and the settlement plan counts it against the cap. On the subscriber's event loop.
     */
    public void attemptAgain() {
        retryCount = attempt() + 1;
    }

    @Override
    public Map<String, Object> headers() {
        // Built when first asked, with plain values: amqp-client's LongString equals no String, a trap in a handler.
        Map<String, Object> plain = plainHeaders;
        if (plain == null) {
            Map<String, Object> headers = properties.getHeaders();
            plain = headers == null ? Map.of() : Collections.unmodifiableMap(PlainHeaders.of(headers));
            plainHeaders = plain;
        }
        return plain;
    }

    @Override
    public Object header(String name) {
        Map<String, Object> headers = properties.getHeaders();
        return headers == null ? null : PlainHeaders.value(headers.get(name));
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
    public MessageProperties properties() {
        // Built when asked: most handlers never read properties, and a delivery allocates nothing for them.
        return PlainProperties.of(properties);
    }

    /**
     * The properties as received, but on a copy the runtime published the original publisher's user-id (see
     * {@link Provenance#asPublished}); the runtime's own view, amqp-client's type, header values as the client reads them.
     */
    public AMQP.BasicProperties wireProperties() {
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
    public Observation observation() {
        return observation;
    }

    /** Closes the handler's outputs and returns what it sent (none when it takes no {@code Outputs}). */
    public List<Output> takeOutputs() {
        HandlerOutputs held = outputs;
        return held == null ? List.of() : held.take();
    }

    /** The outputs a transaction committed with the handler's effects, to publish before the ack; null when none. */
    public CommittedOutputs committedOutputs() {
        return committedOutputs;
    }

    public void committedOutputs(CommittedOutputs committed) {
        this.committedOutputs = committed;
    }

    public void outputs(HandlerOutputs outputs) {
        this.outputs = outputs;
    }

    public void observation(Observation observation) {
        this.observation = observation;
    }
}
