package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.Connections;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.PublishObservation;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * {@link RabbitPublisher} on a connection of its own (RabbitMQ blocks a connection that publishes while it is low on
 * memory or disk; the subscribers' connection must keep acking meanwhile): one channel for fire-and-forget publishes
 * and one in confirm mode. Every message gets a message id (a random UUID unless the caller's headers carry
 * {@code message-id}).
 * <p>
 * Confirms, nacks and returns arrive on amqp-client's reader thread. The caller's future is completed from there on
 * the caller's Vert.x context, or on a worker when the caller had none: a continuation that blocks (another
 * {@code sendAndAwait}) must never hold the reader, which would then never read the confirm it waits for. A confirmed
 * send fails with a {@link TimeoutException} when the broker has not confirmed within
 * {@code quarkus.rabbitmq-subscriber.publisher.confirm-timeout}.
 * <p>
 * Publishes in flight are followed by a {@link ConfirmTracker}: a confirm completes them, a nack or a
 * {@code basic.return} fails the one it belongs to, a closed channel fails them all. The broker's listener threads
 * take only the tracker's monitor, never the publisher's own (held across calls into the broker): a listener waiting
 * for a publisher waiting for the broker would deadlock.
 */
@Singleton
public class BrokerRabbitPublisher implements RabbitPublisher {

    @Inject
    Connections connections;

    @Inject
    ObjectMapper objectMapper;

    @Inject
    SubscriberConfig config;

    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.observe.ApplicationObservers observers;

    private PayloadEncoder encoder;
    private volatile BrokerChannel plain;
    private volatile BrokerChannel confirming;
    private final ConfirmTracker<CompletableFuture<Void>> unconfirmed = new ConfirmTracker<>();

    @Override
    public Uni<Void> send(String exchange, String routingKey, Object payload, Map<String, Object> headers) {
        return onCallersContext(() -> isReady(plain), caller -> Uni.createFrom().item(() -> {
            byte[] body = encoder().encode(payload);
            Map<String, Object> sent = headersToSend(headers);
            PublishObservation observation = observers.get().publishing(exchange, routingKey, sent);
            AMQP.BasicProperties properties;
            try {
                properties = properties(payload, headers.get("message-id"), sent);
                synchronized (this) {
                    plainChannel().publish(exchange, routingKey, false, properties, body);
                }
            } catch (IOException e) {
                observation.done(e);
                throw new IllegalStateException(failure(exchange, routingKey, e.getMessage()), e);
            } catch (RuntimeException e) {
                observation.done(e);
                throw e;
            }
            observation.done(null);
            return null;
        }));
    }

    @Override
    public Uni<Void> sendConfirmed(String exchange, String routingKey, Object payload, Map<String, Object> headers) {
        return onCallersContext(() -> isReady(confirming),
                caller -> Uni.createFrom().completionStage(() -> publishConfirmed(caller, exchange, routingKey, payload,
                        headers)));
    }

    /**
     * Publishes in confirm mode; the returned stage completes on the caller's context (a worker when it had none)
     * once the broker confirmed, nacked, returned, or did not answer in time.
     */
    private CompletableFuture<Void> publishConfirmed(Context caller, String exchange, String routingKey, Object payload,
            Map<String, Object> headers) {
        byte[] body;
        AMQP.BasicProperties properties;
        PublishObservation observation = PublishObservation.NONE;
        try {
            body = encoder().encode(payload);
            Map<String, Object> sent = headersToSend(headers);
            observation = observers.get().publishing(exchange, routingKey, sent);
            properties = properties(payload, headers.get("message-id"), sent);
        } catch (RuntimeException e) {
            observation.done(e);
            return CompletableFuture.failedFuture(e);
        }
        PublishObservation observed = observation;
        CompletableFuture<Void> delivered = publishConfirmed(caller, exchange, routingKey, properties, body);
        delivered.whenComplete((ignored, failure) -> observed.done(failure));
        return delivered;
    }

    /**
     * Publishes a message as it is ({@code mandatory}, in confirm mode): for the runtime's own messages, such as the
     * copies the {@code IN_SERVICE} delay holds. The stage completes on a worker once the broker confirmed it, and
     * fails when the broker nacked or returned it, did not confirm within the confirm timeout, or the channel closed
     * first. Opening the channel waits for the broker: from an event loop that happens on a worker.
     */
    public CompletableFuture<Void> publishConfirmed(String exchange, String routingKey, AMQP.BasicProperties properties,
            byte[] body) {
        // The runtime's held copies carry their delivery's trace: the observers continue it.
        PublishObservation observation = PublishObservation.NONE;
        AMQP.BasicProperties sent = properties;
        if (observers.get().active()) {
            var observed = observers.get().publishingCopy(exchange, routingKey, properties);
            sent = observed.properties();
            observation = observed.observation();
        }
        PublishObservation done = observation;
        CompletableFuture<Void> published;
        try {
            published = publishConfirmedCopy(exchange, routingKey, sent, body);
        } catch (RuntimeException e) {
            // A worker pool that refuses the task (stopping): the caller holds the copy and tries again, or says it
            // is lost; it must hear of it either way.
            published = CompletableFuture.failedFuture(e);
        }
        published.whenComplete((ignored, failure) -> done.done(failure));
        return published;
    }

    private CompletableFuture<Void> publishConfirmedCopy(String exchange, String routingKey,
            AMQP.BasicProperties properties, byte[] body) {
        if (isReady(confirming) || !Context.isOnEventLoopThread()) {
            return publishConfirmed(null, exchange, routingKey, properties, body);
        }
        CompletableFuture<Void> result = new CompletableFuture<>();
        Infrastructure.getDefaultWorkerPool().execute(() -> publishConfirmed(null, exchange, routingKey, properties, body)
                .whenComplete((ignored, failure) -> {
                    if (failure == null) {
                        result.complete(null);
                    } else {
                        result.completeExceptionally(failure);
                    }
                }));
        return result;
    }

    private CompletableFuture<Void> publishConfirmed(Context caller, String exchange, String routingKey,
            AMQP.BasicProperties properties, byte[] body) {
        CompletableFuture<Void> delivered = new CompletableFuture<>();
        Duration timeout = config.publisher().confirmTimeout();
        CompletableFuture<Void> result = new CompletableFuture<>();
        long sequenceNumber = -1;
        try {
            synchronized (this) {
                BrokerChannel channel = confirmingChannel();
                sequenceNumber = channel.nextPublishSeqNo();
                unconfirmed.published(sequenceNumber, properties.getMessageId(), exchange, routingKey, result, 0);
                try {
                    channel.publish(exchange, routingKey, true, properties, body);
                } catch (IOException | RuntimeException e) {
                    unconfirmed.forget(sequenceNumber, result);
                    throw e;
                }
            }
        } catch (IOException e) {
            result.completeExceptionally(new IllegalStateException(failure(exchange, routingKey, e.getMessage()), e));
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
        long tracked = sequenceNumber;
        result.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((ignored, failure) -> {
            Throwable reported = failure;
            if (failure instanceof TimeoutException) {
                // No later confirm or return may find it.
                unconfirmed.forget(tracked, result);
                reported = new TimeoutException(failure(exchange, routingKey, "RabbitMQ did not confirm it within "
                        + timeout + " (quarkus.rabbitmq-subscriber.publisher.confirm-timeout)" + blockedReason()));
            }
            completeOn(caller, delivered, reported);
        });
        return delivered;
    }

    /**
     * Runs the work with the caller's Vert.x context (null when it has none) and delivers its outcome there. Opening a
     * channel waits for the broker: the first publish from an event loop does that on a worker, and comes back to the
     * caller's context afterwards. Once the channel is open, publishing writes a frame and stays on the caller's
     * thread.
     */
    private static <T> Uni<T> onCallersContext(java.util.function.BooleanSupplier ready,
            java.util.function.Function<Context, Uni<T>> work) {
        return Uni.createFrom().deferred(() -> {
            Context caller = Vertx.currentContext();
            Uni<T> uni = work.apply(caller);
            if (ready.getAsBoolean() || !Context.isOnEventLoopThread()) {
                return uni;
            }
            return uni.runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                    .emitOn(task -> caller.runOnContext(ignored -> task.run()));
        });
    }

    /** Why the broker blocks publishing, when it said so; never opens anything (the runtime may be stopping). */
    private String blockedReason() {
        try {
            return connections.publishingConnection().blockedBecause()
                    .map(why -> ": the broker blocks publishing (" + why + ")")
                    .orElse(": is the broker blocking publishers (a memory or disk alarm)?");
        } catch (RuntimeException e) {
            return "";
        }
    }

    private static void completeOn(Context caller, CompletableFuture<Void> target, Throwable failure) {
        Runnable complete = () -> {
            if (failure == null) {
                target.complete(null);
            } else {
                target.completeExceptionally(failure);
            }
        };
        if (caller != null) {
            caller.runOnContext(ignored -> complete.run());
        } else {
            Infrastructure.getDefaultWorkerPool().execute(complete);
        }
    }

    private static boolean isReady(BrokerChannel channel) {
        return channel != null && channel.isOpen();
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

    /** The caller's headers as sent: a map of our own (observers add to it), without message-id (a property). */
    private static Map<String, Object> headersToSend(Map<String, Object> headers) {
        Map<String, Object> sent = new LinkedHashMap<>(headers);
        sent.remove("message-id");
        return sent;
    }

    private static AMQP.BasicProperties properties(Object payload, Object id, Map<String, Object> sent) {
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                .messageId(id != null ? id.toString() : UUID.randomUUID().toString())
                .contentType(PayloadEncoder.isJson(payload) ? "application/json"
                        : payload instanceof String ? "text/plain" : "application/octet-stream")
                .deliveryMode(2)
                .headers(sent.isEmpty() ? null : sent)
                .build();
        if (!sent.isEmpty()) {
            // A header AMQP cannot carry fails here, before a confirm number is taken for a frame never sent.
            try {
                WireProperties.roundTrip(properties);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("A message header value cannot be sent over AMQP (" + e.getMessage()
                        + "): use strings, numbers, booleans, dates, byte arrays, lists and maps of them; headers were "
                        + sent.keySet(), e);
            }
        }
        return properties;
    }

    private BrokerChannel plainChannel() throws IOException {
        BrokerChannel channel = plain;
        if (channel == null || !channel.isOpen()) {
            channel = connections.publishingConnection().createChannel();
            plain = channel;
        }
        return channel;
    }

    private BrokerChannel confirmingChannel() throws IOException {
        BrokerChannel channel = confirming;
        if (channel == null || !channel.isOpen()) {
            failAllPending("the confirm channel closed before the broker confirmed");
            channel = connections.publishingConnection().createChannel();
            channel.confirmSelect(new PublishListener() {
                @Override
                public void acked(long sequenceNumber, boolean multiple) {
                    settle(sequenceNumber, multiple, null);
                }

                @Override
                public void nacked(long sequenceNumber, boolean multiple) {
                    settle(sequenceNumber, multiple, "the broker nacked the message");
                }

                @Override
                public void returned(int replyCode, String replyText, String exchange, String routingKey,
                        AMQP.BasicProperties properties, byte[] body) {
                    CompletableFuture<Void> result = unconfirmed.returned(properties.getMessageId(), exchange,
                            routingKey);
                    if (result != null) {
                        result.completeExceptionally(new IllegalStateException(failure(exchange, routingKey,
                                "unroutable (" + replyText + "): no queue is bound")));
                    }
                }

                @Override
                public void closed(String reason) {
                    // No confirm comes after this; after a recovery the sequence starts again at 1.
                    failAllPending("the channel closed before the broker confirmed: " + reason);
                }
            });
            confirming = channel;
        }
        return channel;
    }

    /** A confirm or a nack; completing runs the callers' continuations, outside the tracker's monitor. */
    private void settle(long sequenceNumber, boolean multiple, String nackReason) {
        for (CompletableFuture<Void> result : unconfirmed.answered(sequenceNumber, multiple)) {
            if (nackReason == null) {
                result.complete(null);
            } else {
                result.completeExceptionally(new IllegalStateException(nackReason));
            }
        }
    }

    private void failAllPending(String reason) {
        for (CompletableFuture<Void> result : unconfirmed.closed()) {
            result.completeExceptionally(new IllegalStateException(reason));
        }
    }
}
