package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberEngine;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.smallrye.mutiny.Uni;

/**
 * {@link RabbitPublisher} on the engine's connection: one channel for fire-and-forget publishes and one in confirm
 * mode. Every message gets a message id (a random UUID unless the caller's headers carry {@code message-id}), which is
 * also how a {@code basic.return} finds the publish it belongs to.
 */
@Singleton
public class BrokerRabbitPublisher implements RabbitPublisher {

    @Inject
    SubscriberEngine engine;

    @Inject
    ObjectMapper objectMapper;

    private PayloadEncoder encoder;
    private BrokerChannel plain;
    private BrokerChannel confirming;
    private final ConcurrentNavigableMap<Long, Pending> unconfirmed = new ConcurrentSkipListMap<>();
    private final Map<String, Pending> byMessageId = new ConcurrentHashMap<>();

    private record Pending(String messageId, CompletableFuture<Void> result) {
    }

    @Override
    public Uni<Void> send(String exchange, String routingKey, Object payload, Map<String, Object> headers) {
        return Uni.createFrom().item(() -> {
            byte[] body = encoder().encode(payload);
            synchronized (this) {
                try {
                    plainChannel().publish(exchange, routingKey, false, properties(payload, headers), body);
                } catch (IOException e) {
                    throw new IllegalStateException(failure(exchange, routingKey, e.getMessage()), e);
                }
            }
            return null;
        });
    }

    @Override
    public Uni<Void> sendConfirmed(String exchange, String routingKey, Object payload, Map<String, Object> headers) {
        return Uni.createFrom().completionStage(() -> {
            byte[] body = encoder().encode(payload);
            AMQP.BasicProperties properties = properties(payload, headers);
            CompletableFuture<Void> result = new CompletableFuture<>();
            synchronized (this) {
                try {
                    BrokerChannel channel = confirmingChannel();
                    Pending pending = new Pending(properties.getMessageId(), result);
                    unconfirmed.put(channel.nextPublishSeqNo(), pending);
                    byMessageId.put(pending.messageId(), pending);
                    channel.publish(exchange, routingKey, true, properties, body);
                } catch (IOException e) {
                    result.completeExceptionally(
                            new IllegalStateException(failure(exchange, routingKey, e.getMessage()), e));
                }
            }
            return result;
        });
    }

    private static String failure(String exchange, String routingKey, String why) {
        return "Publishing to exchange '" + exchange + "' with routing key '" + routingKey + "' failed: " + why;
    }

    private synchronized PayloadEncoder encoder() {
        if (encoder == null) {
            encoder = new PayloadEncoder(objectMapper);
        }
        return encoder;
    }

    private static AMQP.BasicProperties properties(Object payload, Map<String, Object> headers) {
        Object id = headers.get("message-id");
        return new AMQP.BasicProperties.Builder()
                .messageId(id != null ? id.toString() : UUID.randomUUID().toString())
                .contentType(PayloadEncoder.isJson(payload) ? "application/json"
                        : payload instanceof String ? "text/plain" : "application/octet-stream")
                .deliveryMode(2)
                .headers(headers.isEmpty() ? null : headers)
                .build();
    }

    private BrokerChannel plainChannel() throws IOException {
        if (plain == null || !plain.isOpen()) {
            plain = engine.connection().createChannel();
        }
        return plain;
    }

    private BrokerChannel confirmingChannel() throws IOException {
        if (confirming == null || !confirming.isOpen()) {
            failAllPending("the confirm channel closed before the broker confirmed");
            confirming = engine.connection().createChannel();
            confirming.confirmSelect(new PublishListener() {
                @Override
                public void acked(long sequenceNumber, boolean multiple) {
                    settle(sequenceNumber, multiple, null);
                }

                @Override
                public void nacked(long sequenceNumber, boolean multiple) {
                    settle(sequenceNumber, multiple, "the broker nacked the message");
                }

                @Override
                public void closed(String reason) {
                    // No confirm comes after this; after a recovery the sequence starts again at 1.
                    failAllPending("the channel closed before the broker confirmed: " + reason);
                }

                // A mandatory message no queue takes comes back before its ack: fail its publish first.
                @Override
                public void returned(int replyCode, String replyText, String exchange, String routingKey,
                        AMQP.BasicProperties properties, byte[] body) {
                    Pending pending = byMessageId.get(properties.getMessageId());
                    if (pending != null) {
                        pending.result().completeExceptionally(new IllegalStateException(failure(exchange, routingKey,
                                "unroutable (" + replyText + "): no queue is bound")));
                    }
                }
            });
        }
        return confirming;
    }

    private void settle(long sequenceNumber, boolean multiple, String nackReason) {
        Map<Long, Pending> confirmed = multiple ? unconfirmed.headMap(sequenceNumber, true) : single(sequenceNumber);
        for (Pending pending : confirmed.values()) {
            byMessageId.remove(pending.messageId());
            if (nackReason == null) {
                pending.result().complete(null);
            } else {
                pending.result().completeExceptionally(new IllegalStateException(nackReason));
            }
        }
        confirmed.clear();
    }

    private Map<Long, Pending> single(long sequenceNumber) {
        Pending pending = unconfirmed.remove(sequenceNumber);
        Map<Long, Pending> map = new HashMap<>();
        if (pending != null) {
            map.put(sequenceNumber, pending);
        }
        return map;
    }

    private void failAllPending(String reason) {
        for (Pending pending : unconfirmed.values()) {
            pending.result().completeExceptionally(new IllegalStateException(reason));
        }
        unconfirmed.clear();
        byMessageId.clear();
    }
}
