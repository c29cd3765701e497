package io.quarkiverse.rabbitmq.subscriber.runtime.output;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.HandlerOutputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.publish.OutgoingProperties;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;

/**
 * The {@link Outputs} of one delivery: what the handler sends is encoded at once, with the properties
 * {@code RabbitPublisher} would give it (a payload or header that cannot be sent fails the handler where it called),
 * and held until the delivery's outcome is known; then the settler takes them ({@link #take()}) to publish on
 * {@code ack}, or they are dropped. A handler may send from any thread until then (a {@code Uni} handler from wherever
 * it completes), so the list is guarded.
 */
public final class HeldOutputs implements HandlerOutputs {

    private final PayloadEncoder encoder;
    /** The delivery's {@code reply-to} and correlation id, for {@link #reply}; null when absent. */
    private final String replyTo;
    private final String correlationId;
    private final ReplyTargets replies;
    /** The subscription's broker. */
    private final String broker;
    /** Names the delivery in errors. */
    private final String delivery;
    private final List<Output> held = new ArrayList<>();
    private boolean taken;

    public HeldOutputs(PayloadEncoder encoder, String replyTo, String correlationId, String delivery) {
        this(encoder, replyTo, correlationId, delivery, ReplyTargets.ANY, io.quarkiverse.rabbitmq.subscriber.Broker.DEFAULT);
    }

    /**
     * @param replies where a reply may go ({@link ReplyTargets})
     * @param broker the subscription's broker, where an output goes unless its message names another
     */
    public HeldOutputs(PayloadEncoder encoder, String replyTo, String correlationId, String delivery,
            ReplyTargets replies, String broker) {
        this.broker = broker;
        this.replies = replies;
        this.encoder = encoder;
        this.replyTo = replyTo;
        this.correlationId = correlationId;
        this.delivery = delivery;
    }

    @Override
    public void send(String queue, Object payload) {
        send(OutgoingMessage.toQueue(queue).payload(payload));
    }

    @Override
    public void publish(String exchange, String routingKey, Object payload, Map<String, Object> headers) {
        send(OutgoingMessage.to(exchange, routingKey).payload(payload).headers(headers));
    }

    @Override
    public void sendToPartition(String subscription, String key, Object payload) {
        send(io.quarkus.arc.Arc.container().instance(
                io.quarkiverse.rabbitmq.subscriber.runtime.publish.PartitionAddresses.class).get()
                .address(subscription, key).payload(payload));
    }

    @Override
    public void reply(Object payload) {
        if (replyTo == null || replyTo.isEmpty()) {
            throw new IllegalStateException("Cannot reply to " + delivery + ": it has no reply-to property");
        }
        String refusal = replies.refusal(replyTo);
        if (refusal != null) {
            throw new IllegalStateException("Cannot reply to " + delivery + ": its reply-to names queue '"
                    + io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText.of(replyTo) + "', and " + refusal);
        }
        OutgoingMessage reply = OutgoingMessage.toQueue(replyTo).payload(payload);
        send(correlationId == null ? reply : reply.correlationId(correlationId));
    }

    @Override
    public void send(OutgoingMessage message) {
        Objects.requireNonNull(message, "message");
        if (message.payload() == null) {
            throw new IllegalArgumentException("The message for " + message.routingKey() + " sent by the handler of "
                    + delivery + " has no payload: give it one (an empty byte[] for an empty body)");
        }
        PayloadEncoder.Encoded encoded = encoder.encode(message.payload(), message.contentType(),
                message.contentEncoding());
        AMQP.BasicProperties properties = OutgoingProperties.of(message, encoded.contentType(),
                encoded.headersWith(message.headers()));
        byte[] body = encoded.body();
        // RabbitMQ delivers a message to a direct reply-to address and returns it as unroutable all the same: no
        // mandatory there, or every reply would fail.
        boolean mandatory = message.mandatory()
                && !(message.exchange().isEmpty() && message.routingKey().startsWith(BrokerChannel.DIRECT_REPLY_TO));
        Output output = new Output(message.exchange(), message.routingKey(), properties, body, mandatory,
                message.broker().orElse(broker));
        synchronized (held) {
            if (taken) {
                throw new IllegalStateException("The outputs of " + delivery + " are closed: its outcome was settled "
                        + "already; send before the handler returns (or before its Uni completes)");
            }
            held.add(output);
        }
    }

    @Override
    public List<Output> take() {
        synchronized (held) {
            taken = true;
            return List.copyOf(held);
        }
    }
}
