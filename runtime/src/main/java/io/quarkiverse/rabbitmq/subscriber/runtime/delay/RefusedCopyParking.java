package io.quarkiverse.rabbitmq.subscriber.runtime.delay;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * Where a held {@code IN_SERVICE} copy goes when RabbitMQ refuses it for good: its original was acked when the copy
 * was taken in, so nothing else holds the message. The subscription's dead-letter queue when it has one; else
 * {@code <queue>.parked}, declared (durable, classic) the first time a copy goes there. The copy keeps its headers (the
 * original queue among them, so {@code DeadLetters.replay} sends it back) and says why in
 * {@link Outcome#DEAD_LETTER_REASON_HEADER}.
 */
public final class RefusedCopyParking {

    /** Publishes where it parks, as the held copies are published (confirmed, mandatory). */
    private final ConfirmedPublish publisher;
    /** The publishing connection, for declaring the parking queue. */
    private final java.util.function.Supplier<BrokerConnection> connection;
    /** The subscription's dead-letter queue, or null. */
    private final String deadLetter;
    private final String parkingQueue;
    private volatile boolean parkingDeclared;

    public RefusedCopyParking(SubscriptionSpec subscription, ConfirmedPublish publisher,
            java.util.function.Supplier<BrokerConnection> connection) {
        this.publisher = publisher;
        this.connection = connection;
        this.deadLetter = subscription.deadLetter;
        this.parkingQueue = subscription.parkingQueue();
    }

    /** The queue refused copies go to. */
    public String where() {
        return deadLetter != null ? deadLetter : parkingQueue;
    }

    /** Publishes the copy where it parks, saying why; completes once RabbitMQ confirmed it. */
    public CompletionStage<Void> park(AMQP.BasicProperties properties, byte[] body, String why) {
        try {
            if (deadLetter == null && !parkingDeclared) {
                try (BrokerChannel channel = connection.get().createChannel()) {
                    channel.declareQueue(parkingQueue, true, false, false, Map.of());
                }
                parkingDeclared = true;
            }
        } catch (Exception e) {
            return CompletableFuture.failedFuture(new IllegalStateException("Cannot declare queue '" + parkingQueue
                    + "' for the refused copies: " + e.getMessage(), e));
        }
        Map<String, Object> headers = properties.getHeaders() == null ? new HashMap<>()
                : new HashMap<>(properties.getHeaders());
        headers.put(Outcome.DEAD_LETTER_REASON_HEADER, why.length() > 1_000 ? why.substring(0, 1_000) : why);
        return publisher.publish("", where(), properties.builder().headers(headers).build(), body);
    }
}
